import { type EventPublisher, Handles, lockFor, requireTenant } from "@kit/kernel";
import { Calendar } from "../../../domain/calendar.ts";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { defaultTimeZone } from "../../../domain/time-zone.ts";
import { calendarLock } from "../../../published-language/calendar-lock.ts";
import { CalendarOpened } from "../../../published-language/calendar-opened.event.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { OpenCalendar, type OpenCalendarResult } from "./open-calendar.command.ts";

/**
 * Runs OpenCalendar: creates the calendar once, and publishes CalendarOpened then. Ids are the
 * practice's own: another practice's calendar of the same id is neither met nor revealed. Opening
 * again is idempotent for the one who opened it; anyone else of the practice naming a taken id is
 * refused (`CALENDAR_TAKEN`). A time zone named for an existing calendar replaces its own, under
 * the calendar's lock (bookings read the zone to decide, one at a time).
 */
@Handles(OpenCalendar)
export class OpenCalendarHandler {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly events: EventPublisher,
  ) {}

  async handle(command: OpenCalendar): Promise<OpenCalendarResult> {
    const calendar = Calendar.open(
      command.calendarId,
      command.actor.id,
      requireTenant(),
      command.timeZone ?? defaultTimeZone,
    );
    if (await this.calendars.add(calendar)) {
      await this.events.publish(CalendarOpened, {
        calendarId: calendar.id,
        ownerId: calendar.ownerId,
      });
      return { id: calendar.id, created: true };
    }
    if (command.timeZone !== undefined) {
      await lockFor(calendarLock(requireTenant(), command.calendarId));
    }
    const existing = await this.calendars.find(command.calendarId);
    // (The row that refused the insert is this practice's: it cannot be gone, calendars are kept.)
    if (existing === undefined) {
      throw schedulingRefusals.unknownCalendar(command.calendarId);
    }
    if (existing.ownerId !== command.actor.id) {
      throw schedulingRefusals.calendarTaken(command.calendarId);
    }
    if (command.timeZone !== undefined && existing.moveTo(command.timeZone)) {
      await this.calendars.saveTimeZone(existing);
    }
    return { id: existing.id, created: false };
  }
}
