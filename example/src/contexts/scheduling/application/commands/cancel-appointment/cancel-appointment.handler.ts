import { type Clock, type EventPublisher, Handles } from "@kit/kernel";
import { visibleTo } from "../../queries/appointment-view.ts";
import { schedulingRefusals } from "../../../domain/scheduling-refusals.ts";
import { AppointmentCancelled } from "../../../published-language/appointment-cancelled.event.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import { CancelAppointment } from "./cancel-appointment.command.ts";

/**
 * Runs CancelAppointment; publishes AppointmentCancelled when it changed something. The save
 * expects the version it loaded: a command that changed the appointment meanwhile makes this one
 * run again (`@RetryOnConflict`), so it decides on the appointment as it now is, and a
 * cancellation is published once however many cancels race.
 */
@Handles(CancelAppointment)
export class CancelAppointmentHandler {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
  ) {}

  async handle(command: CancelAppointment): Promise<{ id: string }> {
    const appointment = await this.appointments.find(command.appointmentId);
    // A patient cancels only their own: another's is answered as missing, never as forbidden.
    if (appointment === undefined || !visibleTo(command.actor, appointment.snapshot)) {
      throw schedulingRefusals.appointmentNotFound(command.appointmentId);
    }
    const state = appointment.snapshot;
    if (appointment.cancel(command.reason, this.clock.now())) {
      await this.appointments.save(appointment);
      await this.events.publish(AppointmentCancelled, {
        appointmentId: state.id,
        calendarId: state.calendarId,
        patientId: state.patientId,
        startsAt: state.startsAt.toISOString(),
        reason: command.reason,
      });
    }
    return { id: state.id };
  }
}
