import { type Clock, type EventPublisher, ForbiddenError, Handles, hasRole } from "@kit/kernel";
import { visibleTo } from "../../queries/appointment-view.ts";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { AppointmentConfirmed } from "../../../published-language/appointment-confirmed.event.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import { ConfirmAppointment } from "./confirm-appointment.command.ts";

/**
 * Runs ConfirmAppointment; publishes AppointmentConfirmed the first time. The save expects the
 * version it loaded (see CancelAppointmentHandler): a confirmation never undoes a cancellation
 * that was saved meanwhile.
 */
@Handles(ConfirmAppointment)
export class ConfirmAppointmentHandler {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
  ) {}

  async handle(command: ConfirmAppointment): Promise<{ id: string }> {
    const appointment = await this.appointments.find(command.appointmentId);
    // Another patient's appointment is answered as missing, never as forbidden.
    if (appointment === undefined || !visibleTo(command.actor, appointment.snapshot)) {
      throw schedulingRefusals.appointmentNotFound(command.appointmentId);
    }
    const state = appointment.snapshot;
    if (state.patientId !== command.actor.id && !hasRole(command.actor, "receptionist")) {
      throw new ForbiddenError("Only the patient (or the front desk) confirms an appointment");
    }
    if (appointment.confirm(this.clock.now())) {
      await this.appointments.save(appointment);
      await this.events.publish(AppointmentConfirmed, {
        appointmentId: state.id,
        calendarId: state.calendarId,
        patientId: state.patientId,
        startsAt: state.startsAt.toISOString(),
      });
    }
    return { id: state.id };
  }
}
