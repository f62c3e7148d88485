import { Handles } from "@kit/kernel";
import { CalendarExists } from "../../../published-language/calendar-exists.query.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";

/** Answers CalendarExists from the calendars of the work's practice. */
@Handles(CalendarExists)
export class CalendarExistsHandler {
  constructor(private readonly calendars: CalendarRepository) {}

  async handle(query: CalendarExists): Promise<boolean> {
    return (await this.calendars.find(query.calendarId)) !== undefined;
  }
}
