import { type Clock, Handles } from "@kit/kernel";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import type { AvailabilityGateway } from "../../ports/availability-gateway.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { type FreeSlots, freeSlotsMaxDays, ListFreeSlots } from "./list-free-slots.query.ts";

const day = 24 * 60 * 60_000;

/**
 * Answers ListFreeSlots from the calendar (its rules, zone and types), the periods availability
 * says it is open in, and its live appointments: `INVALID_PERIOD` unless `from` < `until` within
 * 31 days, `UNKNOWN_CALENDAR` for a calendar the practice has not (another practice's),
 * `UNKNOWN_APPOINTMENT_TYPE` for a type it does not offer.
 */
@Handles(ListFreeSlots)
export class ListFreeSlotsHandler {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly appointments: AppointmentRepository,
    private readonly availability: AvailabilityGateway,
    private readonly clock: Clock,
  ) {}

  async handle(query: ListFreeSlots): Promise<FreeSlots> {
    const { from, until } = query;
    if (until <= from) {
      throw schedulingRefusals.invalidPeriod(from, until, "The period ends after it starts");
    }
    if (until.getTime() - from.getTime() > freeSlotsMaxDays * day) {
      throw schedulingRefusals.invalidPeriod(
        from,
        until,
        `Free slots are listed for ${freeSlotsMaxDays} days at most`,
      );
    }
    const calendar = await this.calendars.find(query.calendarId);
    if (calendar === undefined) throw schedulingRefusals.unknownCalendar(query.calendarId);
    const type = calendar.appointmentTypes.find((t) => t.id === query.appointmentTypeId);
    if (type === undefined) {
      throw schedulingRefusals.unknownAppointmentType(calendar.id, query.appointmentTypeId);
    }
    // A slot starting before `until` may end after it: the appointments up to its end count.
    const reach = new Date(until.getTime() + type.durationMinutes * 60_000);
    const open = await this.availability.openPeriods(
      query.actor,
      calendar.id,
      from,
      until,
      calendar.timeZone,
    );
    const booked = await this.appointments.liveBetween(calendar.id, from, reach);
    const slots = calendar.freeSlots(type.id, { from, until, now: this.clock.now(), open, booked });
    return {
      timeZone: calendar.timeZone,
      slots: slots.map((s) => ({
        startsAt: s.startsAt.toISOString(),
        endsAt: s.endsAt.toISOString(),
      })),
    };
  }
}
