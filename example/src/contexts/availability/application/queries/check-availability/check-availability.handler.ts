import { Handles } from "@kit/kernel";
import { CheckAvailability } from "../../../published-language/check-availability.query.ts";
import type { OpeningHoursRepository } from "../../ports/opening-hours-repository.ts";

/** Answers CheckAvailability from the calendar's opening hours (in the zone named) and time off. */
@Handles(CheckAvailability)
export class CheckAvailabilityHandler {
  constructor(private readonly hours: OpeningHoursRepository) {}

  async handle(query: CheckAvailability): Promise<boolean> {
    const hours = await this.hours.get(query.calendarId);
    return hours.isOpen(query.startsAt, query.endsAt, query.timeZone);
  }
}
