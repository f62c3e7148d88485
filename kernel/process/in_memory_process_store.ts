import { ConcurrentUpdateError } from "../errors/kernel_refusals.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import type { JsonValue } from "../actor/actor.ts";
import type {
  ProcessInstance,
  ProcessInstanceCounts,
  ProcessInstanceEndParams,
  ProcessInstanceListParams,
  ProcessInstancePage,
  ProcessInstanceRef,
  ProcessInstanceSaveParams,
  ProcessMessage,
  ProcessMessageMarkParams,
  ProcessPurgeParams,
  ProcessReach,
  ProcessStore,
} from "./process_store.ts";
import {
  checkProcessPageLimit,
  processCursorOf,
  processCursorRead,
  processReaches,
} from "./process_reach.ts";

/** A message as kept, with its event while it is parked. */
interface Kept extends Omit<ProcessMessage, "parked"> {
  parked: boolean;
  event?: JsonValue;
}

interface Staged {
  readonly instances: Map<string, ProcessInstance>;
  readonly messages: Map<string, Kept>;
  /** Parked messages taken in the unit, by message key. */
  readonly taken: Set<string>;
}

const refKey = (ref: ProcessInstanceRef): string =>
  JSON.stringify([ref.process, ref.tenantId, ref.key]);
const messageKey = (message: ProcessMessage): string =>
  JSON.stringify([refKey(message), message.messageId]);

/**
 * Process instances in process memory, for tests and single-process tools. Writes are the unit of
 * work's until it commits (kept then, dropped on rollback); the unit sees its own writes. A save
 * checks the version against what is kept and staged when it is made; the runtime holds the
 * instance's lock ({@linkcode UnitOfWork.lock}) from load to commit, so two transitions of one
 * instance never interleave. (As `InMemoryProcessedEvents` says, an in-memory unit of work
 * commits in its callbacks, so a unit resuming in the instant between another's commit and its
 * callbacks may read the instance before that commit: on PostgreSQL the row lock closes that.)
 */
export class InMemoryProcessStore implements ProcessStore {
  readonly #instances = new Map<string, ProcessInstance>();
  readonly #messages = new Map<string, Kept[]>();
  /** Writes not committed yet, by unit (forgotten with a unit that rolled back). */
  readonly #staged = new WeakMap<UnitOfWork, Staged>();

  /** The instance as the unit sees it. */
  instanceLoad(
    params: ProcessInstanceRef & { unit: UnitOfWork },
  ): Promise<ProcessInstance | undefined> {
    const key = refKey(params);
    return Promise.resolve(
      this.#staged.get(params.unit)?.instances.get(key) ?? this.#instances.get(key),
    );
  }

  /** Stages the instance at the next version, when the one seen is still at `instance.version`. */
  instanceSave(params: ProcessInstanceSaveParams): Promise<number> {
    const { instance, unit } = params;
    const key = refKey(instance);
    const seen = this.#staged.get(unit)?.instances.get(key) ?? this.#instances.get(key);
    if ((seen?.version ?? 0) !== instance.version) {
      return Promise.reject(
        new ConcurrentUpdateError(`process instance of '${instance.process}'`, instance.key, {
          expectedVersion: instance.version,
        }),
      );
    }
    const version = instance.version + 1;
    this.#stage(unit).instances.set(key, { ...instance, version });
    return Promise.resolve(version);
  }

  /** Stages the message; false when kept or staged already. */
  messageMark(params: ProcessMessageMarkParams): Promise<boolean> {
    const { unit, now, parked, ...message } = params;
    const key = JSON.stringify([refKey(message), message.messageId]);
    const kept = this.#messages.get(refKey(message))?.some((m) =>
      m.messageId === message.messageId
    );
    if (kept || this.#staged.get(unit)?.messages.has(key)) return Promise.resolve(false);
    this.#stage(unit).messages.set(key, {
      process: message.process,
      tenantId: message.tenantId,
      key: message.key,
      messageId: message.messageId,
      kind: message.kind,
      name: message.name,
      handledAt: now,
      parked: parked !== undefined,
      ...(parked === undefined ? {} : { event: parked }),
    });
    return Promise.resolve(true);
  }

  /** Takes the parked events of the instance, kept or staged, in the order they arrived. */
  messageTakeParked(params: ProcessInstanceRef & { unit: UnitOfWork }): Promise<JsonValue[]> {
    const staged = this.#stage(params.unit);
    const mine = (m: Kept) => refKey(m) === refKey(params);
    const waiting = [
      ...(this.#messages.get(refKey(params)) ?? []),
      ...[...staged.messages.values()].filter(mine),
    ].filter((m) => m.parked && !staged.taken.has(messageKey(m)));
    for (const message of waiting) staged.taken.add(messageKey(message));
    return Promise.resolve(waiting.map((m) => m.event!));
  }

  /** The messages kept for the instance, oldest first. */
  messageList(params: ProcessInstanceRef): Promise<ProcessMessage[]> {
    return Promise.resolve(
      (this.#messages.get(refKey(params)) ?? []).map(({ event: _event, ...message }) => message),
    );
  }

  /** Each process's instances by status, among the tenants reached. */
  instanceCount(params: { readonly reach: ProcessReach }): Promise<ProcessInstanceCounts[]> {
    const counts = new Map<string, { process: string; active: number; completed: number }>();
    for (const instance of this.#instances.values()) {
      if (!processReaches(params.reach, instance.tenantId)) continue;
      const entry = counts.get(instance.process) ??
        { process: instance.process, active: 0, completed: 0 };
      entry[instance.status] += 1;
      counts.set(instance.process, entry);
    }
    return Promise.resolve(
      [...counts.values()].sort((a, b) => (a.process < b.process ? -1 : 1)),
    );
  }

  /** A page of the process's instances among the tenants reached, by tenant then key. */
  instanceList(params: ProcessInstanceListParams): Promise<ProcessInstancePage> {
    try {
      checkProcessPageLimit(params.limit);
    } catch (error) {
      return Promise.reject(error);
    }
    const after = params.after === undefined ? undefined : processCursorRead(params.after);
    if (params.after !== undefined && after === undefined) {
      return Promise.reject(new TypeError("The cursor is not one a page of instances answered"));
    }
    const order = (i: ProcessInstanceRef): [string, string] => [i.tenantId, i.key];
    const before = (a: [string, string], b: [string, string]) =>
      a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
    const matching = [...this.#instances.values()]
      .filter((i) =>
        i.process === params.process && processReaches(params.reach, i.tenantId) &&
        (params.status === undefined || i.status === params.status) &&
        (after === undefined || before(after, order(i)))
      )
      .sort((a, b) => (before(order(a), order(b)) ? -1 : 1));
    const instances = matching.slice(0, params.limit);
    return Promise.resolve({
      instances,
      ...(matching.length > params.limit
        ? { next: processCursorOf(instances[instances.length - 1]!) }
        : {}),
    });
  }

  /** The instance, committed, when the reach includes its tenant. */
  instanceRead(
    params: ProcessInstanceRef & { readonly reach: ProcessReach },
  ): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return Promise.resolve(undefined);
    return Promise.resolve(this.#instances.get(refKey(params)));
  }

  /** Stages the active instance completed by the operator, and the end in its history. */
  async instanceEnd(params: ProcessInstanceEndParams): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return undefined;
    const { unit, now, by } = params;
    const ref = { process: params.process, tenantId: params.tenantId, key: params.key };
    const loaded = await this.instanceLoad({ ...ref, unit });
    if (loaded === undefined || loaded.status !== "active") return undefined;
    await this.instanceSave({
      unit,
      instance: {
        ...loaded,
        status: "completed",
        deadlines: {},
        updatedAt: now,
        completedAt: now,
        endedBy: by,
      },
    });
    const key = JSON.stringify([refKey(ref), `end:${loaded.version}`]);
    this.#stage(unit).messages.set(key, {
      ...ref,
      messageId: `end:${loaded.version}`,
      kind: "operator",
      name: by,
      handledAt: now,
      parked: false,
    });
    return loaded;
  }

  /** Deletes completed instances completed before the instant, with their messages. */
  instancePurgeCompleted(params: ProcessPurgeParams): Promise<number> {
    let purged = 0;
    for (const [key, instance] of this.#instances) {
      if (
        instance.status === "completed" && instance.completedAt !== undefined &&
        instance.completedAt < params.before
      ) {
        this.#instances.delete(key);
        this.#messages.delete(key);
        purged++;
      }
    }
    for (const [key, messages] of this.#messages) {
      if (this.#instances.has(key)) continue;
      const left = messages.filter((m) => m.handledAt >= params.before);
      if (left.length === 0) this.#messages.delete(key);
      else this.#messages.set(key, left);
    }
    return Promise.resolve(purged);
  }

  /** Every kept instance, in insertion order (tests). */
  instances(): ProcessInstance[] {
    return [...this.#instances.values()];
  }

  #stage(unit: UnitOfWork): Staged {
    let staged = this.#staged.get(unit);
    if (staged !== undefined) return staged;
    staged = { instances: new Map(), messages: new Map(), taken: new Set() };
    this.#staged.set(unit, staged);
    const mine = staged;
    unit.whenCommitted(() => {
      this.#staged.delete(unit);
      for (const [key, instance] of mine.instances) this.#instances.set(key, instance);
      for (const message of mine.messages.values()) {
        const key = refKey(message);
        const list = this.#messages.get(key) ?? [];
        list.push(message);
        this.#messages.set(key, list);
      }
      for (const list of mine.taken.size === 0 ? [] : this.#messages.values()) {
        for (const message of list) {
          if (mine.taken.has(messageKey(message))) {
            message.parked = false;
            delete message.event;
          }
        }
      }
    });
    return staged;
  }
}
