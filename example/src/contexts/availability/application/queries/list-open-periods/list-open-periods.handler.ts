import { Handles } from "@kit/kernel";
import {
  ListOpenPeriods,
  type OpenPeriodView,
} from "../../../published-language/list-open-periods.query.ts";
import type { OpeningHoursRepository } from "../../ports/opening-hours-repository.ts";

/** Answers ListOpenPeriods from the calendar's opening hours and time off. */
@Handles(ListOpenPeriods)
export class ListOpenPeriodsHandler {
  constructor(private readonly hours: OpeningHoursRepository) {}

  async handle(query: ListOpenPeriods): Promise<OpenPeriodView[]> {
    const hours = await this.hours.get(query.calendarId);
    return hours.openPeriods(query.from, query.until, query.timeZone).map((p) => ({
      startsAt: p.startsAt.toISOString(),
      endsAt: p.endsAt.toISOString(),
    }));
  }
}
