import { Handles, type IdGenerator, lockFor, requireTenant } from "@kit/kernel";
import { calendarLock } from "../../../../scheduling/published-language/calendar-lock.ts";
import { availabilityRefusals } from "../../../domain/availability-refusals.ts";
import type { BookedAppointments } from "../../ports/booked-appointments.ts";
import type { KnownCalendars } from "../../ports/known-calendars.ts";
import type { OpeningHoursRepository } from "../../ports/opening-hours-repository.ts";
import { AddTimeOff } from "./add-time-off.command.ts";

/**
 * Runs AddTimeOff on a calendar of the work's practice (another's is UNKNOWN_CALENDAR), asking
 * scheduling which appointments the period covers. It holds the calendar's lock, as bookings do,
 * before it asks: a booking and a time off over the same slot never both commit.
 */
@Handles(AddTimeOff)
export class AddTimeOffHandler {
  constructor(
    private readonly hours: OpeningHoursRepository,
    private readonly booked: BookedAppointments,
    private readonly calendars: KnownCalendars,
    private readonly ids: IdGenerator,
  ) {}

  async handle(command: AddTimeOff): Promise<{ id: string }> {
    await lockFor(calendarLock(requireTenant(), command.calendarId));
    if (!await this.calendars.exists(command.actor, command.calendarId)) {
      throw availabilityRefusals.unknownCalendar(command.calendarId);
    }
    const hours = await this.hours.get(command.calendarId);
    const timeOff = {
      id: this.ids.next(),
      startsAt: command.startsAt,
      endsAt: command.endsAt,
      reason: command.reason,
    };
    hours.addTimeOff(
      timeOff,
      await this.booked.between(
        command.actor,
        command.calendarId,
        command.startsAt,
        command.endsAt,
      ),
    );
    await this.hours.addTimeOff(command.calendarId, timeOff);
    return { id: timeOff.id };
  }
}
