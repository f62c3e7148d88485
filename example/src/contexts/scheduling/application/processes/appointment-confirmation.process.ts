import { z } from "zod";
import type { CommandBus, IntegrationEvent } from "@kit/kernel";
import {
  onEvent,
  type ProcessCompletion,
  type ProcessContext,
  type ProcessDeadline,
  ProcessManager,
} from "@kit/kernel/process";
import { AppointmentBooked } from "../../published-language/appointment-booked.event.ts";
import { AppointmentCancelled } from "../../published-language/appointment-cancelled.event.ts";
import { AppointmentConfirmed } from "../../published-language/appointment-confirmed.event.ts";
import { confirmationRequestedHoursBefore } from "../../published-language/appointment-confirmation-requested.event.ts";
import { AppointmentRescheduled } from "../../published-language/appointment-rescheduled.event.ts";
import { ReleaseUnconfirmed } from "../commands/release-unconfirmed/release-unconfirmed.command.ts";
import { RequestConfirmation } from "../commands/request-confirmation/request-confirmation.command.ts";

/** The state of one appointment's confirmation, validated on every load (stored as JSON). */
export const AppointmentConfirmationState = z.object({
  appointmentId: z.string(),
  /** The start the deadlines were planned for (ISO 8601). */
  startsAt: z.iso.datetime(),
  /** Whether the patient (or the front desk) confirmed it for that start. */
  confirmed: z.boolean(),
});

/** The state of one appointment's confirmation. */
export type AppointmentConfirmationState = z.infer<typeof AppointmentConfirmationState>;

/** The deadlines of the process. */
type Deadlines = "remind" | "release" | "close";

const hour = 3_600_000;
/** How long before its start the patient is asked to confirm. */
const remindBefore: number = confirmationRequestedHoursBefore * hour;
/** How long before its start an unconfirmed appointment is released. */
const releaseBefore: number = 2 * hour;

/**
 * scheduling.appointment-confirmation: when an appointment is booked, ask the patient to confirm
 * it a day before (`remind`: RequestConfirmation); if it is not confirmed two hours before, cancel
 * it and release its slot (`release`: ReleaseUnconfirmed); stop when it is cancelled. Confirmed in
 * time, it waits for its start (`close`), so that a move is still followed: a moved appointment
 * awaits confirmation again, and its deadlines move with it. Booked (or moved) less than a day
 * ahead, the patient is asked at once; less than two hours ahead, nothing is asked or released.
 *
 * An instance per appointment and practice; its deadlines are the background jobs
 * `scheduling.appointment-confirmation-deadline`, its commands run as the system in the
 * appointment's practice, in the unit of work of the event or deadline that caused them.
 */
@ProcessManager({
  name: "scheduling.appointment-confirmation",
  state: AppointmentConfirmationState,
  startsOn: [
    onEvent(AppointmentBooked, { key: (p) => p.appointmentId, transition: "onBooked" }),
  ],
  handles: [
    onEvent(AppointmentConfirmed, { key: (p) => p.appointmentId, transition: "onConfirmed" }),
    onEvent(AppointmentRescheduled, { key: (p) => p.appointmentId, transition: "onRescheduled" }),
    onEvent(AppointmentCancelled, { key: (p) => p.appointmentId, transition: "onCancelled" }),
  ],
  deadlines: { remind: "remind", release: "release", close: "close" },
})
export class AppointmentConfirmation {
  /** The process's name: its instances, its deliveries and its deadline job (`-deadline`). */
  static readonly processName = "scheduling.appointment-confirmation";

  constructor(private readonly commands: CommandBus) {}

  /** Starts an instance and plans its deadlines. */
  onBooked(
    event: IntegrationEvent<{ appointmentId: string; startsAt: string }>,
    process: ProcessContext<Deadlines>,
  ): Promise<AppointmentConfirmationState> {
    plan(event.payload.startsAt, process);
    return Promise.resolve({
      appointmentId: event.payload.appointmentId,
      startsAt: event.payload.startsAt,
      confirmed: false,
    });
  }

  /** Confirmed: nothing to ask or release; the instance waits for the start (or a move). */
  onConfirmed(
    state: AppointmentConfirmationState,
    _event: IntegrationEvent<{ appointmentId: string }>,
    process: ProcessContext<Deadlines>,
  ): Promise<AppointmentConfirmationState> {
    process.cancelDeadline("remind");
    process.cancelDeadline("release");
    process.requestDeadline("close", new Date(state.startsAt));
    return Promise.resolve({ ...state, confirmed: true });
  }

  /** Moved: it awaits confirmation again (the appointment is booked again), for its new start. */
  onRescheduled(
    state: AppointmentConfirmationState,
    event: IntegrationEvent<{ appointmentId: string; startsAt: string }>,
    process: ProcessContext<Deadlines>,
  ): Promise<AppointmentConfirmationState> {
    plan(event.payload.startsAt, process);
    return Promise.resolve({ ...state, startsAt: event.payload.startsAt, confirmed: false });
  }

  /** Cancelled: the process stops, its pending deadlines cancelled with it. */
  onCancelled(
    _state: AppointmentConfirmationState,
    _event: IntegrationEvent<{ appointmentId: string }>,
    process: ProcessContext<Deadlines>,
  ): Promise<ProcessCompletion> {
    return Promise.resolve(process.complete());
  }

  /** A day before: asks the patient to confirm, telling them when the slot is released. */
  async remind(
    state: AppointmentConfirmationState,
    _deadline: ProcessDeadline,
    process: ProcessContext<Deadlines>,
  ): Promise<AppointmentConfirmationState> {
    const releasedAt = new Date(Date.parse(state.startsAt) - releaseBefore);
    await this.commands.execute(
      new RequestConfirmation(process.execution.actor, state.appointmentId, releasedAt),
    );
    return state;
  }

  /** Two hours before, still unconfirmed: the appointment is cancelled, its slot released. */
  async release(
    state: AppointmentConfirmationState,
    _deadline: ProcessDeadline,
    process: ProcessContext<Deadlines>,
  ): Promise<ProcessCompletion> {
    await this.commands.execute(
      new ReleaseUnconfirmed(process.execution.actor, state.appointmentId),
    );
    return process.complete();
  }

  /** A confirmed appointment's start: nothing left to follow. */
  close(
    _state: AppointmentConfirmationState,
    _deadline: ProcessDeadline,
    process: ProcessContext<Deadlines>,
  ): Promise<ProcessCompletion> {
    return Promise.resolve(process.complete());
  }
}

/**
 * The deadlines for a start: the reminder a day before (at once when that has passed), the release
 * two hours before; less than two hours ahead, neither (the instance closes at the start).
 */
function plan(startsAt: string, process: ProcessContext<Deadlines>): void {
  const start = Date.parse(startsAt);
  const now = process.now.getTime();
  process.cancelDeadline("close");
  if (start - releaseBefore <= now) {
    process.cancelDeadline("remind");
    process.cancelDeadline("release");
    process.requestDeadline("close", new Date(start));
    return;
  }
  process.requestDeadline("remind", new Date(Math.max(now, start - remindBefore)));
  process.requestDeadline("release", new Date(start - releaseBefore));
}
