import { type Clock, type EventPublisher, ForbiddenError, Handles, hasRole } from "@kit/kernel";
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
    if (appointment === undefined) {
      throw schedulingRefusals.appointmentNotFound(command.appointmentId);
    }
    const state = appointment.snapshot;
    if (
      state.patientId !== command.actor.id && command.actor.kind === "user" &&
      !hasRole(command.actor, "receptionist", "practitioner")
    ) {
      throw new ForbiddenError("A patient cancels only their own appointments");
    }
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
