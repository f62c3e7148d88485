import {
  type Clock,
  type EventPublisher,
  ForbiddenError,
  Handles,
  hasRole,
  type IdGenerator,
  lockFor,
  requireTenant,
} from "@kit/kernel";
import { Appointment } from "../../../domain/appointment.ts";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { AppointmentBooked } from "../../../published-language/appointment-booked.event.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import type { AvailabilityGateway } from "../../ports/availability-gateway.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { calendarLock } from "../../../published-language/calendar-lock.ts";
import { BookAppointment } from "./book-appointment.command.ts";

/**
 * Runs BookAppointment. Decisions over one calendar's time are taken one at a time: the handler
 * takes the calendar's lock (`calendarLock`, as moves, time off and opening hours do) before it
 * reads what it checks, so two bookings of one slot cannot both win, nor a booking and a time off
 * over it; the unique index on live slots stands behind that.
 */
@Handles(BookAppointment)
export class BookAppointmentHandler {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly appointments: AppointmentRepository,
    private readonly availability: AvailabilityGateway,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async handle(command: BookAppointment): Promise<{ id: string }> {
    if (
      command.patientId !== command.actor.id &&
      !hasRole(command.actor, "receptionist", "practitioner")
    ) {
      throw new ForbiddenError("Only staff book for another patient");
    }
    await lockFor(calendarLock(requireTenant(), command.calendarId));
    const calendar = await this.calendars.find(command.calendarId);
    if (calendar === undefined) throw schedulingRefusals.unknownCalendar(command.calendarId);
    const now = this.clock.now();
    const planned = calendar.planBooking(command.appointmentTypeId, command.startsAt, {
      now,
      patientId: command.patientId,
      patientUpcoming: await this.appointments.countUpcoming(
        calendar.id,
        command.patientId,
        now,
      ),
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
    const overlapping = await this.appointments.liveBetween(
      calendar.id,
      planned.startsAt,
      planned.endsAt,
    );
    if (overlapping.length > 0) throw schedulingRefusals.slotTaken(planned.startsAt);
    const appointment = Appointment.book({
      id: this.ids.next(),
      calendarId: calendar.id,
      tenantId: calendar.tenantId,
      appointmentTypeId: planned.appointmentType.id,
      patientId: command.patientId,
      startsAt: planned.startsAt,
      endsAt: planned.endsAt,
      bookedBy: command.actor.id,
    });
    await this.appointments.add(appointment);
    await this.events.publish(AppointmentBooked, {
      appointmentId: appointment.id,
      calendarId: calendar.id,
      appointmentTypeId: planned.appointmentType.id,
      patientId: command.patientId,
      startsAt: planned.startsAt.toISOString(),
      endsAt: planned.endsAt.toISOString(),
    });
    return { id: appointment.id };
  }
}
