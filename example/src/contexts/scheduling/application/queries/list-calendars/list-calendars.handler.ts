import { Handles } from "@kit/kernel";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { calendarView } from "../calendar-view.ts";
import { ListCalendars, type ListCalendarsResult } from "./list-calendars.query.ts";

/** Answers ListCalendars from the repository, which reads only the practices the work reaches. */
@Handles(ListCalendars)
export class ListCalendarsHandler {
  constructor(private readonly calendars: CalendarRepository) {}

  async handle(_query: ListCalendars): Promise<ListCalendarsResult> {
    return { calendars: (await this.calendars.list()).map(calendarView) };
  }
}
