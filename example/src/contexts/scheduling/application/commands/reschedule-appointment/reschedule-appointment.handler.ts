import { type Clock, type EventPublisher, Handles, lockFor, requireTenant } from "@kit/kernel";
import { visibleTo } from "../../queries/appointment-view.ts";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { AppointmentRescheduled } from "../../../published-language/appointment-rescheduled.event.ts";
import { calendarLock } from "../../../published-language/calendar-lock.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import type { AvailabilityGateway } from "../../ports/availability-gateway.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { RescheduleAppointment } from "./reschedule-appointment.command.ts";

/**
 * Runs RescheduleAppointment: the booking rules again, the appointment itself set aside. It takes
 * the calendar's lock (as bookings and time off do) before it reads what it checks, then loads
 * the appointment as it is under the lock; the save expects that version, so a cancellation saved
 * meanwhile is never undone: the command runs again (`@RetryOnConflict`) and meets
 * APPOINTMENT_CANCELLED.
 */
@Handles(RescheduleAppointment)
export class RescheduleAppointmentHandler {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly appointments: AppointmentRepository,
    private readonly availability: AvailabilityGateway,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
  ) {}

  async handle(command: RescheduleAppointment): Promise<{ id: string }> {
    const tenantId = requireTenant();
    const found = await this.appointments.find(command.appointmentId);
    // A patient moves only their own: another's is answered as missing, never as forbidden.
    if (found === undefined || !visibleTo(command.actor, found.snapshot)) {
      throw schedulingRefusals.appointmentNotFound(command.appointmentId);
    }
    await lockFor(calendarLock(tenantId, found.snapshot.calendarId));
    const appointment = await this.appointments.find(command.appointmentId);
    if (appointment === undefined) {
      throw schedulingRefusals.appointmentNotFound(command.appointmentId);
    }
    const state = appointment.snapshot;
    const calendar = await this.calendars.find(state.calendarId);
    if (calendar === undefined) throw schedulingRefusals.unknownCalendar(state.calendarId);
    const now = this.clock.now();
    const upcoming = await this.appointments.countUpcoming(calendar.id, state.patientId, now);
    const planned = calendar.planBooking(state.appointmentTypeId, command.startsAt, {
      now,
      patientId: state.patientId,
      // The appointment being moved does not count against the patient's limit.
      patientUpcoming: state.endsAt > now && state.status !== "cancelled" ? upcoming - 1 : upcoming,
    });
    if (
      !await this.availability.isOpen(
        command.actor,
        calendar.id,
        planned.startsAt,
        planned.endsAt,
        calendar.timeZone,
      )
    ) {
      throw schedulingRefusals.outsideAvailability(planned.startsAt, planned.endsAt);
    }
    const overlapping = (await this.appointments.liveBetween(
      calendar.id,
      planned.startsAt,
      planned.endsAt,
    )).filter((a) => a.id !== state.id);
    if (overlapping.length > 0) throw schedulingRefusals.slotTaken(planned.startsAt);
    const previous = appointment.reschedule(planned.startsAt, planned.endsAt, now);
    await this.appointments.save(appointment);
    await this.events.publish(AppointmentRescheduled, {
      appointmentId: state.id,
      calendarId: state.calendarId,
      patientId: state.patientId,
      previousStartsAt: previous.toISOString(),
      startsAt: planned.startsAt.toISOString(),
      endsAt: planned.endsAt.toISOString(),
    });
    return { id: state.id };
  }
}
