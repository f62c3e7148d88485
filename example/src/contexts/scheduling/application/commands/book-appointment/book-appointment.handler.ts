import {
  type Clock,
  type EventPublisher,
  ForbiddenError,
  Handles,
  hasRole,
  type IdGenerator,
} from "@kit/kernel";
import { Appointment } from "../../../domain/appointment.ts";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { AppointmentBooked } from "../../../published-language/appointment-booked.event.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import type { AvailabilityGateway } from "../../ports/availability-gateway.ts";
import type { CalendarRepository } from "../../ports/calendar-repository.ts";
import { seesTenant } from "../../work-tenant.ts";
import { BookAppointment } from "./book-appointment.command.ts";

/**
 * Runs BookAppointment. Bookings of one calendar are decided one at a time (the calendar is held
 * for the unit of work), so two bookings of one slot cannot both win; the unique index on live
 * slots stands behind that.
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
    const calendar = await this.calendars.find(command.calendarId);
    if (calendar === undefined || !seesTenant(calendar.tenantId)) {
      throw schedulingRefusals.unknownCalendar(command.calendarId);
    }
    await this.calendars.lockForBooking(calendar.id);
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
      !await this.availability.isOpen(command.actor, calendar.id, planned.startsAt, planned.endsAt)
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
      ...(calendar.tenantId === undefined ? {} : { tenantId: calendar.tenantId }),
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
