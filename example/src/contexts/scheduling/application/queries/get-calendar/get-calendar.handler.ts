import { Handles } from "@kit/kernel";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { type CalendarView, calendarView } from "../calendar-view.ts";
import { GetCalendar } from "./get-calendar.query.ts";

/**
 * Answers GetCalendar: `UNKNOWN_CALENDAR` when the practice has no calendar of that id (another
 * practice's calendar is not found: the repository reads only the practices the work reaches).
 */
@Handles(GetCalendar)
export class GetCalendarHandler {
  constructor(private readonly calendars: CalendarRepository) {}

  async handle(query: GetCalendar): Promise<CalendarView> {
    const calendar = await this.calendars.find(query.calendarId);
    if (calendar === undefined) throw schedulingRefusals.unknownCalendar(query.calendarId);
    return calendarView(calendar);
  }
}
