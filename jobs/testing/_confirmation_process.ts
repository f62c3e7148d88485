import { z } from "zod";
import {
  defineIntegrationEvent,
  defineModule,
  type IntegrationEvent,
  type Module,
  type Token,
  token,
} from "@kit/kernel";
import { currentUnitOfWork } from "@kit/kernel/internal";
import {
  onEvent,
  type ProcessContext,
  type ProcessDeadline,
  ProcessManager,
} from "@kit/kernel/process";

/** Appointments booked, confirmed, noted and cancelled: the events of the contract's process. */
export const Booked = defineIntegrationEvent({
  type: "appointments.appointment.booked",
  version: 1,
  payload: z.object({ appointmentId: z.string(), startsAt: z.iso.datetime() }),
});
/** The patient confirmed. */
export const Confirmed = defineIntegrationEvent({
  type: "appointments.appointment.confirmed",
  version: 1,
  payload: z.object({ appointmentId: z.string() }),
});
/** A note was added (the contract sends many at once). */
export const Noted = defineIntegrationEvent({
  type: "appointments.appointment.noted",
  version: 1,
  payload: z.object({ appointmentId: z.string(), note: z.string() }),
});
/** The appointment was cancelled. */
export const Cancelled = defineIntegrationEvent({
  type: "appointments.appointment.cancelled",
  version: 1,
  payload: z.object({ appointmentId: z.string() }),
});

/** The state of the contract's process. */
export const ConfirmationState = z.object({
  status: z.enum(["booked", "confirmed"]),
  startsAt: z.iso.datetime(),
  notes: z.array(z.string()),
  log: z.array(z.string()),
});
type State = z.infer<typeof ConfirmationState>;

/** The effects of the transitions, recorded once their unit of work commits. */
export interface Effects {
  /** What each committed transition did. */
  readonly done: string[];
}
/** The token of the effects. */
export const Effects: Token<Effects> = token<Effects>("ContractEffects");

const hour = 3_600_000;

/**
 * Booked → a reminder a day before and a release two hours before; confirmed → the release is
 * cancelled; cancelled → done; the release → done.
 */
@ProcessManager({
  name: "appointments.confirmation",
  state: ConfirmationState,
  startsOn: [onEvent(Booked, { key: (p) => p.appointmentId, transition: "booked" })],
  handles: [
    onEvent(Confirmed, { key: (p) => p.appointmentId, transition: "confirmed" }),
    onEvent(Noted, { key: (p) => p.appointmentId, transition: "noted" }),
    onEvent(Cancelled, { key: (p) => p.appointmentId, transition: "cancelled" }),
  ],
  deadlines: { remind: "remind", release: "release" },
})
export class ConfirmationProcess {
  /** Records its effects in `effects`. */
  constructor(private readonly effects: Effects) {}

  /** Starts: asks for the reminder and the release. */
  booked(
    event: IntegrationEvent<{ appointmentId: string; startsAt: string }>,
    process: ProcessContext<"remind" | "release">,
  ): Promise<State> {
    const startsAt = Date.parse(event.payload.startsAt);
    process.requestDeadline("remind", new Date(startsAt - 24 * hour), { channel: "sms" });
    process.requestDeadline("release", new Date(startsAt - 2 * hour));
    this.#effect(process, `booked ${process.key}`);
    return Promise.resolve({
      status: "booked",
      startsAt: event.payload.startsAt,
      notes: [],
      log: ["booked"],
    });
  }

  /** Confirmed: the release is cancelled. */
  confirmed(
    state: State,
    _event: IntegrationEvent<{ appointmentId: string }>,
    process: ProcessContext<"remind" | "release">,
  ): Promise<State> {
    process.cancelDeadline("release");
    this.#effect(process, `confirmed ${process.key}`);
    return Promise.resolve({ ...state, status: "confirmed", log: [...state.log, "confirmed"] });
  }

  /** A note. */
  noted(
    state: State,
    event: IntegrationEvent<{ appointmentId: string; note: string }>,
  ): Promise<State> {
    return Promise.resolve({ ...state, notes: [...state.notes, event.payload.note] });
  }

  /** Cancelled: done. */
  cancelled(
    _state: State,
    _event: IntegrationEvent<{ appointmentId: string }>,
    process: ProcessContext,
  ): Promise<ReturnType<ProcessContext["complete"]>> {
    this.#effect(process, `cancelled ${process.key}`);
    return Promise.resolve(process.complete());
  }

  /** The reminder. */
  remind(state: State, deadline: ProcessDeadline, process: ProcessContext): Promise<State> {
    this.#effect(process, `reminded ${process.key} by ${JSON.stringify(deadline.payload)}`);
    return Promise.resolve({ ...state, log: [...state.log, "reminded"] });
  }

  /** Not confirmed in time: the slot is released, done. */
  release(
    _state: State,
    _deadline: ProcessDeadline,
    process: ProcessContext,
  ): Promise<ReturnType<ProcessContext["complete"]>> {
    this.#effect(process, `released ${process.key}`);
    return Promise.resolve(process.complete());
  }

  #effect(process: ProcessContext, what: string): void {
    const line = `${process.tenantId}: ${what}`;
    currentUnitOfWork()!.whenCommitted(() => void this.effects.done.push(line));
  }
}

/** The module of the contract's process. */
export function confirmationModule(): Module {
  return defineModule("appointments", {
    declarations: [ConfirmationProcess],
    dependencies: new Map([[ConfirmationProcess, [Effects]]]),
  });
}
