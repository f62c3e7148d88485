// deno-lint-ignore-file no-explicit-any
import type { StandardSchemaV1 } from "@standard-schema/spec";
import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "../declarations/declaration.ts";
import { eventConsumerDeclarations } from "../events/event_consumers.ts";
import type { IntegrationEvent, IntegrationEventDefinition } from "../events/integration_event.ts";
import { processRuntimeOf } from "./process_runtimes.ts";
import type { ProcessCompletion, ProcessContext, ProcessDeadline } from "./process_context.ts";

/**
 * One event a process manager reacts to: the event, how it correlates to an instance (a key from
 * the event, unique per process and tenant), and the name of the transition method it runs. Made
 * with {@linkcode onEvent}.
 */
export interface ProcessEventEntry<P = any, M extends string = string> {
  /** The event. */
  readonly event: IntegrationEventDefinition<P>;
  /** The key of the instance the event belongs to (`appointmentId`): a non-empty string. */
  readonly key: (payload: P, event: IntegrationEvent<P>) => string;
  /** The name of the method that runs the transition. */
  readonly transition: M;
  /**
   * What a handled (not starting) event does when no instance has its key (yet): `park` (default)
   * keeps it with the key, and the instance handles it right after its start, in the order the
   * parked events arrived (the relay promises no order: a confirmation may arrive before the
   * booking); `ignore` drops it (a debug line `PROCESS_INSTANCE_NOT_FOUND`).
   */
  readonly ifMissing?: "park" | "ignore";
}

/**
 * Names an event of a process manager: its correlation key and its transition method.
 *
 * @example
 * ```ts ignore
 * onEvent(AppointmentConfirmed, { key: (p) => p.appointmentId, transition: "confirmed" })
 * ```
 */
export function onEvent<P, const M extends string>(
  event: IntegrationEventDefinition<P>,
  options: {
    key: (payload: P, event: IntegrationEvent<P>) => string;
    transition: M;
    ifMissing?: "park" | "ignore";
  },
): ProcessEventEntry<P, M> {
  if (typeof event?.type !== "string" || typeof event.create !== "function") {
    throw new TypeError(
      `onEvent() takes an event from defineIntegrationEvent(), got ${String(event)}`,
    );
  }
  if (typeof options?.key !== "function") {
    throw new TypeError(`onEvent('${event.type}') needs key: a function of the event's payload`);
  }
  if (typeof options.transition !== "string" || options.transition === "") {
    throw new TypeError(`onEvent('${event.type}') needs transition: the name of a method`);
  }
  if (options.ifMissing !== undefined && !["park", "ignore"].includes(options.ifMissing)) {
    throw new TypeError(
      `onEvent('${event.type}') takes ifMissing 'park' or 'ignore', got ${
        JSON.stringify(options.ifMissing)
      }`,
    );
  }
  return Object.freeze({ event, ...options });
}

/** What `@ProcessManager` takes. */
export interface ProcessManagerOptions<
  S,
  Start extends ProcessEventEntry,
  Handle extends ProcessEventEntry,
  D extends Readonly<Record<string, string>>,
> {
  /**
   * `<context>.<process>` in kebab-case (`appointments.confirmation`): the identity of its
   * instances, of its outbox deliveries and of its deadline job (`<context>.<process>-deadline`).
   * Renaming it starts a new process: the old instances are no longer reached.
   */
  readonly name: string;
  /**
   * The schema of the state (any Standard Schema): every loaded state is validated with it, so a
   * state stored by an older deploy that no longer fits fails loudly (`PROCESS_STATE_INVALID`).
   */
  readonly state: StandardSchemaV1<unknown, S>;
  /** The events that start an instance (at least one): `(event, process) => state`. */
  readonly startsOn: readonly Start[];
  /** The events an instance handles once started: `(state, event, process) => state`. */
  readonly handles?: readonly Handle[];
  /** The deadlines it may request, each with its method: `(state, deadline, process) => state`. */
  readonly deadlines?: D;
}

/** The methods a process manager class must have for its declaration. */
export type ProcessTransitions<
  S,
  Start extends ProcessEventEntry,
  Handle extends ProcessEventEntry,
  D extends Readonly<Record<string, string>>,
> =
  & {
    [E in Start as E["transition"]]: (
      event: IntegrationEvent<E extends ProcessEventEntry<infer P, any> ? P : never>,
      process: ProcessContext<keyof D & string>,
    ) => Promise<S | ProcessCompletion>;
  }
  & {
    [E in Handle as E["transition"]]: (
      state: S,
      event: IntegrationEvent<E extends ProcessEventEntry<infer P, any> ? P : never>,
      process: ProcessContext<keyof D & string>,
    ) => Promise<S | ProcessCompletion>;
  }
  & {
    [K in keyof D as D[K]]: (
      state: S,
      deadline: ProcessDeadline,
      process: ProcessContext<keyof D & string>,
    ) => Promise<S | ProcessCompletion>;
  };

/** What `@ProcessManager` records on a class: the declaration, checked and normalised. */
export interface ProcessManagerDeclaration {
  /** `<context>.<process>`. */
  readonly name: string;
  /** The context: the first part of the name (the queue of its deadline job). */
  readonly context: string;
  /** The schema of the state. */
  readonly state: StandardSchemaV1<unknown, unknown>;
  /** The events, by type: whether each starts an instance, its key and its method. */
  readonly events: ReadonlyMap<string, ProcessEventEntry & { readonly starts: boolean }>;
  /** The deadlines' methods, by deadline name. */
  readonly deadlines: ReadonlyMap<string, string>;
}

/** The declaration kind of process managers. */
export const processManagerDeclarations: DeclarationKind<ProcessManagerDeclaration> =
  declarationKind<ProcessManagerDeclaration>("process-manager");

const namePattern = /^([a-z][a-z0-9-]*)\.[a-z][a-z0-9-]*$/;
const deadlinePattern = /^[a-z][a-zA-Z0-9-]*$/;

/**
 * Declares a process manager: a multi-step process that waits for events with deadlines. Each
 * instance is a versioned aggregate keyed by the process, its tenant and a key taken from each
 * event; its transitions are methods of the class (its dependencies by constructor, as any kit
 * class), each given the state and the event or deadline, answering the next state or
 * `process.complete()`. Deadlines are background jobs, requested and cancelled with
 * `process.requestDeadline()` and `process.cancelDeadline()`. See the guide
 * `docs/guides/process-managers.md`.
 *
 * @example
 * ```ts ignore
 * @ProcessManager({
 *   name: "appointments.confirmation",
 *   state: ConfirmationState,
 *   startsOn: [onEvent(AppointmentBooked, { key: (p) => p.appointmentId, transition: "booked" })],
 *   handles: [onEvent(AppointmentConfirmed, { key: (p) => p.appointmentId, transition: "confirmed" })],
 *   deadlines: { release: "release" },
 * })
 * class AppointmentConfirmation { ... }
 * ```
 */
export function ProcessManager<
  S,
  const Start extends ProcessEventEntry,
  const Handle extends ProcessEventEntry = never,
  const D extends Readonly<Record<string, string>> = Record<never, string>,
>(
  options: ProcessManagerOptions<S, Start, Handle, D>,
): KitClassDecorator<abstract new (...args: any[]) => ProcessTransitions<S, Start, Handle, D>> {
  const declaration = processManagerDeclarationOf(options);
  return classDecorator("ProcessManager", (target) => {
    const methods = [
      ...[...declaration.events.values()].map((e) => e.transition),
      ...declaration.deadlines.values(),
    ];
    for (const method of methods) {
      if (typeof (target.prototype as Record<string, unknown>)[method] !== "function") {
        throw new TypeError(
          `Process manager '${declaration.name}' names the transition '${method}', which class '${target.name}' does not have`,
        );
      }
    }
    processManagerDeclarations.record(target, declaration);
    eventConsumerDeclarations.record(target, {
      name: declaration.name,
      events: [...declaration.events.values()].map((entry) => entry.event),
      consumer: (container) => {
        const runtime = processRuntimeOf(container, target, declaration);
        return { handle: (event) => runtime.handleEvent(event) };
      },
    });
  });
}

/** Checks the options of a process manager and normalises them. */
export function processManagerDeclarationOf(
  options: ProcessManagerOptions<any, ProcessEventEntry, ProcessEventEntry, any>,
): ProcessManagerDeclaration {
  const name = options?.name;
  const match = typeof name === "string" ? namePattern.exec(name) : null;
  if (match === null) {
    throw new TypeError(
      `Invalid process manager name ${
        JSON.stringify(name)
      }: use '<context>.<process>' in kebab-case`,
    );
  }
  if (typeof options.state?.["~standard"]?.validate !== "function") {
    throw new TypeError(
      `Process manager '${name}' needs a state schema that implements Standard Schema`,
    );
  }
  if (!Array.isArray(options.startsOn) || options.startsOn.length === 0) {
    throw new TypeError(`Process manager '${name}' needs startsOn: at least one event`);
  }
  const events = new Map<string, ProcessEventEntry & { starts: boolean }>();
  const add = (entry: ProcessEventEntry, starts: boolean) => {
    if (typeof entry?.event?.type !== "string" || typeof entry.key !== "function") {
      throw new TypeError(`Process manager '${name}' lists an event not made with onEvent()`);
    }
    if (events.has(entry.event.type)) {
      throw new TypeError(
        `Process manager '${name}' lists the event '${entry.event.type}' twice: an event starts or is handled, once`,
      );
    }
    events.set(entry.event.type, { ...entry, starts });
  };
  for (const entry of options.startsOn) add(entry, true);
  for (const entry of options.handles ?? []) add(entry, false);
  const deadlines = new Map<string, string>();
  for (const [deadline, method] of Object.entries(options.deadlines ?? {})) {
    if (!deadlinePattern.test(deadline) || typeof method !== "string" || method === "") {
      throw new TypeError(
        `Process manager '${name}' declares the deadline ${
          JSON.stringify(deadline)
        }: name it in camelCase or kebab-case, with the name of its method`,
      );
    }
    deadlines.set(deadline, method);
  }
  return Object.freeze({
    name: name as string,
    context: match[1]!,
    state: options.state,
    events,
    deadlines,
  });
}
