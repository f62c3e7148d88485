import { type Clock, type EventPublisher, Handles } from "@kit/kernel";
import { AppointmentCancelled } from "../../../published-language/appointment-cancelled.event.ts";
import type { AppointmentRepository } from "../../ports/appointment-repository.ts";
import { ReleaseUnconfirmed } from "./release-unconfirmed.command.ts";

/** Why an unconfirmed appointment was cancelled (AppointmentCancelled's reason). */
const unconfirmedReason = "not confirmed two hours before its start";

/**
 * Runs ReleaseUnconfirmed: cancels a booked (unconfirmed) appointment that has not ended and
 * publishes AppointmentCancelled, so its slot is free again. The save expects the version it
 * loaded: a confirmation saved meanwhile makes the unit fail (`CONCURRENT_UPDATE`), and the
 * deadline's job, run again, finds the appointment confirmed and releases nothing.
 */
@Handles(ReleaseUnconfirmed)
export class ReleaseUnconfirmedHandler {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
  ) {}

  async handle(command: ReleaseUnconfirmed): Promise<{ released: boolean }> {
    const appointment = await this.appointments.find(command.appointmentId);
    const now = this.clock.now();
    if (
      appointment === undefined || appointment.snapshot.status !== "booked" ||
      appointment.snapshot.endsAt <= now
    ) return { released: false };
    const state = appointment.snapshot;
    appointment.cancel(unconfirmedReason, now);
    await this.appointments.save(appointment);
    await this.events.publish(AppointmentCancelled, {
      appointmentId: state.id,
      calendarId: state.calendarId,
      patientId: state.patientId,
      startsAt: state.startsAt.toISOString(),
      reason: unconfirmedReason,
    });
    return { released: true };
  }
}
