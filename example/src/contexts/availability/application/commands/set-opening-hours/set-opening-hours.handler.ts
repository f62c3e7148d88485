import { Handles, lockFor, requireTenant } from "@kit/kernel";
import { calendarLock } from "../../../../scheduling/published-language/calendar-lock.ts";
import { availabilityRefusals } from "../../../domain/availability-refusals.ts";
import type { KnownCalendars } from "../../ports/known-calendars.ts";
import type { OpeningHoursRepository } from "../../ports/opening-hours-repository.ts";
import { SetOpeningHours } from "./set-opening-hours.command.ts";

/**
 * Runs SetOpeningHours on a calendar of the work's practice (another's is UNKNOWN_CALENDAR),
 * holding the calendar's lock: replacements of one calendar's hours, and the bookings that read
 * them, are decided one at a time.
 */
@Handles(SetOpeningHours)
export class SetOpeningHoursHandler {
  constructor(
    private readonly hours: OpeningHoursRepository,
    private readonly calendars: KnownCalendars,
  ) {}

  async handle(command: SetOpeningHours): Promise<void> {
    await lockFor(calendarLock(requireTenant(), command.calendarId));
    if (!await this.calendars.exists(command.actor, command.calendarId)) {
      throw availabilityRefusals.unknownCalendar(command.calendarId);
    }
    const hours = await this.hours.get(command.calendarId);
    hours.setWeekly(command.windows);
    await this.hours.saveWeekly(hours);
  }
}
