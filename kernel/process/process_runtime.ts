import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonValue } from "../actor/actor.ts";
import type { ExecutionContext } from "../actor/execution_context.ts";
import type { IntegrationEvent } from "../events/integration_event.ts";
import { uuidv7 } from "../ids/id.ts";
import type { Logger } from "../logging/logger.ts";
import type { Clock } from "../time/clock.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { currentScope } from "../unit_of_work/work_scope.ts";
import {
  isProcessCompletion,
  type PendingDeadline,
  processCompletion,
  type ProcessContext,
  type ProcessDeadline,
} from "./process_context.ts";
import type { ProcessDeadlines, ScheduledDeadline } from "./process_deadlines.ts";
import { ProcessStateInvalidError } from "./process_errors.ts";
import type { ProcessEventEntry, ProcessManagerDeclaration } from "./process_manager.ts";
import type { ProcessInstance, ProcessInstanceRef, ProcessStore } from "./process_store.ts";

/** A transition method, as the runtime calls it. */
type Transition = (...args: unknown[]) => Promise<unknown>;

/** One transition to run: a message's method, given the state so far. */
interface Step {
  readonly messageId: string;
  readonly run: (state: unknown, context: ProcessContext) => Promise<unknown>;
}

/** What a process manager's runtime needs. */
export interface ProcessRuntimeOptions {
  /** Where instances are kept. */
  readonly store: ProcessStore;
  /** Where deadlines become background jobs. */
  readonly deadlines: ProcessDeadlines;
  /** The application's clock. */
  readonly clock: Clock;
  /** Where the debug lines of no-ops go (duplicates, stale deadlines). */
  readonly logger: Logger;
}

/**
 * Runs the transitions of one process manager, each in the unit of work under way (the event's
 * delivery, or the deadline job's unit): takes the instance's lock, loads it, records the message
 * (an event id or a deadline token) so that a message redelivered is a no-op, runs the transition
 * as the work under way (the system actor, the instance's tenant), saves the instance at its next
 * version (a stale version is `CONCURRENT_UPDATE`: the unit rolls back and the message is
 * delivered again), and enqueues or cancels the deadlines' jobs in the same unit.
 */
export class ProcessRuntime {
  readonly #declaration: ProcessManagerDeclaration;
  readonly #handlers: () => object;
  readonly #options: ProcessRuntimeOptions;

  /** Builds the runtime of a declared process; `handlers` builds the class's instance. */
  constructor(
    declaration: ProcessManagerDeclaration,
    handlers: () => object,
    options: ProcessRuntimeOptions,
  ) {
    this.#declaration = declaration;
    this.#handlers = handlers;
    this.#options = options;
  }

  /** The declaration it runs. */
  get declaration(): ProcessManagerDeclaration {
    return this.#declaration;
  }

  /** Applies an event to its instance, in the unit of work under way. */
  async handleEvent(event: IntegrationEvent): Promise<void> {
    const entry = this.#entry(event);
    const key = this.#keyOf(entry, event);
    const { unit, execution } = this.#work();
    const ref = this.#ref(key, execution);
    await this.#lock(ref, unit);
    const store = this.#options.store;
    const loaded = await store.instanceLoad({ ...ref, unit });
    const now = this.#options.clock.now();
    const mark = {
      ...ref,
      messageId: event.id,
      kind: "event" as const,
      name: event.type,
      unit,
      now,
    };
    if (loaded === undefined && !entry.starts) {
      if (entry.ifMissing === "ignore") {
        return this.#skip("PROCESS_INSTANCE_NOT_FOUND", "no instance for the event", ref, event.id);
      }
      const parked = JSON.parse(JSON.stringify(event)) as JsonValue;
      if (!(await store.messageMark({ ...mark, parked }))) {
        return this.#skip("PROCESS_DUPLICATE", "event handled already", ref, event.id);
      }
      return this.#skip(
        "PROCESS_EVENT_PARKED",
        "event parked until its instance starts",
        ref,
        event.id,
      );
    }
    if (!(await store.messageMark(mark))) {
      return this.#skip("PROCESS_DUPLICATE", "event handled already", ref, event.id);
    }
    if (loaded?.status === "completed") {
      return this.#skip("PROCESS_COMPLETED", "event for a completed instance", ref, event.id);
    }
    if (loaded !== undefined && entry.starts) {
      return this.#skip(
        "PROCESS_ALREADY_STARTED",
        "starting event for a started instance",
        ref,
        event.id,
      );
    }
    if (loaded !== undefined) {
      const state = await this.#parse(loaded.state, ref.key, "loaded");
      return await this.#transition(loaded, state, execution, now, [this.#step(entry, event)]);
    }
    // A new instance: its start, then the events that arrived before it, in their order.
    const steps = [this.#step(entry, event)];
    for (const parked of await store.messageTakeParked({ ...ref, unit })) {
      const early = parked as unknown as IntegrationEvent;
      const earlyEntry = this.#declaration.events.get(early.type);
      if (earlyEntry === undefined || earlyEntry.starts) {
        this.#skip("PROCESS_PARKED_DROPPED", "parked event no longer handled", ref, early.id);
        continue;
      }
      steps.push(this.#step(earlyEntry, early));
    }
    const instance: ProcessInstance = {
      ...ref,
      status: "active",
      state: null,
      version: 0,
      deadlines: {},
      startedAt: now,
      updatedAt: now,
    };
    await this.#transition(instance, undefined, execution, now, steps);
  }

  /** Runs a deadline's transition, unless the instance ended or the deadline is no longer pending. */
  async handleDeadline(deadline: ScheduledDeadline): Promise<void> {
    if (deadline.process !== this.#declaration.name) {
      throw new TypeError(
        `The deadline of '${deadline.process}' reached the runtime of '${this.#declaration.name}'`,
      );
    }
    const methodName = this.#declaration.deadlines.get(deadline.name);
    if (methodName === undefined) {
      throw new TypeError(
        `Process manager '${this.#declaration.name}' declares no deadline '${deadline.name}'`,
      );
    }
    const { unit, execution } = this.#work();
    const ref = this.#ref(deadline.key, execution);
    await this.#lock(ref, unit);
    const loaded = await this.#options.store.instanceLoad({ ...ref, unit });
    const pending = loaded?.deadlines[deadline.name];
    if (
      loaded === undefined || loaded.status === "completed" || pending?.token !== deadline.token
    ) {
      return this.#skip(
        "PROCESS_DEADLINE_STALE",
        "deadline no longer pending",
        ref,
        deadline.token,
      );
    }
    const now = this.#options.clock.now();
    const fresh = await this.#options.store.messageMark({
      ...ref,
      messageId: deadline.token,
      kind: "deadline",
      name: deadline.name,
      unit,
      now,
    });
    if (!fresh) {
      return this.#skip("PROCESS_DUPLICATE", "deadline handled already", ref, deadline.token);
    }
    const { [deadline.name]: _fired, ...rest } = loaded.deadlines;
    const state = await this.#parse(loaded.state, ref.key, "loaded");
    const message: ProcessDeadline = {
      name: deadline.name,
      at: new Date(pending.at),
      payload: pending.payload,
    };
    const method = this.#method(methodName);
    // The fired deadline is no longer pending, and its job is the one running: not cancelled.
    await this.#transition({ ...loaded, deadlines: rest }, state, execution, now, [{
      messageId: deadline.token,
      run: (current, context) => method(current, message, context),
    }]);
  }

  /**
   * Runs the steps in order from `state` (undefined: a start), then saves the instance once and
   * reconciles its deadlines' jobs: those no longer pending (cancelled, replaced, ended) are
   * cancelled, new ones enqueued, in the unit of work. A step after a completion is not run.
   */
  async #transition(
    instance: ProcessInstance,
    state: unknown,
    execution: ExecutionContext,
    now: Date,
    steps: readonly Step[],
  ): Promise<void> {
    const pending: Record<string, PendingDeadline> = { ...instance.deadlines };
    let current = state;
    let completed = false;
    for (const step of steps) {
      if (completed) {
        this.#skip("PROCESS_COMPLETED", "event for a completed instance", instance, step.messageId);
        continue;
      }
      const requests = new Map<string, { at: Date; payload: JsonValue } | null>();
      const answered = await step.run(
        current,
        this.#context(instance, execution, now, pending, requests),
      );
      if (isProcessCompletion(answered)) {
        completed = true;
        for (const name of Object.keys(pending)) delete pending[name];
        continue;
      }
      current = await this.#parse(answered, instance.key, "answered");
      for (const [name, request] of requests) {
        if (request === null) delete pending[name];
        else {
          pending[name] = {
            token: uuidv7(now.getTime()),
            at: request.at.toISOString(),
            payload: request.payload,
          };
        }
      }
    }
    for (const [name, before] of Object.entries(instance.deadlines)) {
      if (pending[name]?.token !== before.token && before.jobId !== undefined) {
        await this.#options.deadlines.cancel(before.jobId);
      }
    }
    for (const [name, deadline] of Object.entries(pending)) {
      if (deadline.jobId !== undefined) continue;
      const jobId = await this.#options.deadlines.schedule({
        process: instance.process,
        key: instance.key,
        name,
        token: deadline.token,
        at: deadline.at,
      });
      pending[name] = { ...deadline, jobId };
    }
    const unit = this.#work().unit;
    await this.#options.store.instanceSave({
      unit,
      instance: {
        ...instance,
        state: current === undefined ? null : JSON.parse(JSON.stringify(current)) as JsonValue,
        updatedAt: now,
        deadlines: pending,
        ...(completed ? { status: "completed" as const, completedAt: now } : {}),
      },
    });
  }

  #context(
    instance: ProcessInstance,
    execution: ExecutionContext,
    now: Date,
    pending: Readonly<Record<string, PendingDeadline>>,
    requests: Map<string, { at: Date; payload: JsonValue } | null>,
  ): ProcessContext {
    const declared = this.#declaration.deadlines;
    const named = (name: string, verb: string) => {
      if (!declared.has(name)) {
        throw new TypeError(
          `Process manager '${this.#declaration.name}' cannot ${verb} the deadline '${name}': declare it in deadlines`,
        );
      }
    };
    return {
      process: instance.process,
      key: instance.key,
      tenantId: instance.tenantId,
      now,
      execution,
      deadlines: Object.fromEntries(
        Object.entries(pending).map(([name, d]) => [name, { at: new Date(d.at) }]),
      ),
      requestDeadline(name, at, payload = null) {
        named(name, "request");
        if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
          throw new TypeError(`requestDeadline('${name}') takes a valid Date, got ${String(at)}`);
        }
        requests.set(name, { at, payload: JSON.parse(JSON.stringify(payload)) as JsonValue });
      },
      cancelDeadline(name) {
        named(name, "cancel");
        requests.set(name, null);
      },
      complete: () => processCompletion,
    };
  }

  #entry(event: IntegrationEvent): ProcessEventEntry & { readonly starts: boolean } {
    const entry = this.#declaration.events.get(event.type);
    if (entry === undefined) {
      throw new TypeError(
        `Process manager '${this.#declaration.name}' does not handle the event '${event.type}'`,
      );
    }
    return entry;
  }

  #keyOf(entry: ProcessEventEntry, event: IntegrationEvent): string {
    const key = entry.key(event.payload, event);
    if (typeof key !== "string" || key === "") {
      throw new TypeError(
        `Process manager '${this.#declaration.name}' took the key ${
          JSON.stringify(key)
        } from the event '${event.type}' (${event.id}): a key is a non-empty string`,
      );
    }
    return key;
  }

  /** The step of an event: its transition, given the state (none for a start). */
  #step(entry: ProcessEventEntry & { readonly starts: boolean }, event: IntegrationEvent): Step {
    const method = this.#method(entry.transition);
    return {
      messageId: event.id,
      run: (state, context) =>
        entry.starts ? method(event, context) : method(state, event, context),
    };
  }

  #work(): { unit: UnitOfWork; execution: ExecutionContext } {
    const scope = currentScope();
    if (scope?.unitOfWork === undefined) {
      throw new Error(
        `Process manager '${this.#declaration.name}' runs a transition only inside a unit of work (an event delivery or a deadline job)`,
      );
    }
    return { unit: scope.unitOfWork, execution: scope.execution };
  }

  #ref(key: string, execution: ExecutionContext): ProcessInstanceRef {
    return { process: this.#declaration.name, tenantId: execution.tenantId ?? "", key };
  }

  async #lock(ref: ProcessInstanceRef, unit: UnitOfWork): Promise<void> {
    await unit.lock(`kit:process:${JSON.stringify([ref.process, ref.tenantId, ref.key])}`);
  }

  #method(name: string): Transition {
    const handlers = this.#handlers() as Record<string, unknown>;
    const method = handlers[name];
    if (typeof method !== "function") {
      throw new TypeError(
        `Process manager '${this.#declaration.name}' has no transition method '${name}'`,
      );
    }
    return (method as Transition).bind(handlers);
  }

  async #parse(value: unknown, key: string, where: "loaded" | "answered"): Promise<unknown> {
    const schema = this.#declaration.state as StandardSchemaV1<unknown, unknown>;
    const result = await schema["~standard"].validate(value);
    if (result.issues !== undefined) {
      const issues = result.issues.map((issue) => issue.message).join("; ");
      throw new ProcessStateInvalidError(this.#declaration.name, key, where, issues);
    }
    return result.value;
  }

  #skip(code: string, message: string, ref: ProcessInstanceRef, messageId: string): undefined {
    this.#options.logger.log({
      level: "debug",
      component: "process",
      code,
      message: `${ref.process}: ${message}`,
      details: { process: ref.process, tenantId: ref.tenantId, key: ref.key, messageId },
    });
  }
}
