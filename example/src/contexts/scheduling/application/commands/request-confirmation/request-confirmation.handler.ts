import { type EventPublisher, Handles } from "@kit/kernel";
import { AppointmentConfirmationRequested } from "../../../published-language/appointment-confirmation-requested.event.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import { RequestConfirmation } from "./request-confirmation.command.ts";

/**
 * Runs RequestConfirmation: publishes AppointmentConfirmationRequested for an appointment that is
 * booked and not confirmed, in the unit of work of the process's deadline (so the request is
 * published once with the transition that asked for it, or not at all).
 */
@Handles(RequestConfirmation)
export class RequestConfirmationHandler {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly events: EventPublisher,
  ) {}

  async handle(command: RequestConfirmation): Promise<{ requested: boolean }> {
    const state = (await this.appointments.find(command.appointmentId))?.snapshot;
    if (state === undefined || state.status !== "booked") return { requested: false };
    await this.events.publish(AppointmentConfirmationRequested, {
      appointmentId: state.id,
      calendarId: state.calendarId,
      patientId: state.patientId,
      startsAt: state.startsAt.toISOString(),
      releasedAt: command.releasedAt.toISOString(),
    });
    return { requested: true };
  }
}
