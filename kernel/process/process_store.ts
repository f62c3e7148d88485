import type { JsonValue } from "../actor/actor.ts";
import { type Token, token } from "../composition/token.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import type { PendingDeadline } from "./process_context.ts";

/** The statuses of a process instance: `active` (waiting for events or deadlines), `completed`. */
export const processInstanceStatuses: readonly ["active", "completed"] = ["active", "completed"];

/** The status of a process instance: `active` (waiting for events or deadlines), `completed`. */
export type ProcessInstanceStatus = typeof processInstanceStatuses[number];

/** Where an instance is: its process, its tenant ('' for none) and its key. */
export interface ProcessInstanceRef {
  /** The process's name, `<context>.<process>`. */
  readonly process: string;
  /** The tenant of the events that drive it ('' for none). */
  readonly tenantId: string;
  /** The correlation key. */
  readonly key: string;
}

/** One instance of a process manager, as a store keeps it. */
export interface ProcessInstance extends ProcessInstanceRef {
  /** Active or completed (completed ones are kept, archived, until purged). */
  readonly status: ProcessInstanceStatus;
  /** The state the last transition answered (JSON); a completed one keeps its last state. */
  readonly state: JsonValue;
  /** From 1, one more with each transition: a save expects the version it loaded. */
  readonly version: number;
  /** The deadlines it waits for, by name. */
  readonly deadlines: Readonly<Record<string, PendingDeadline>>;
  /** When it started. */
  readonly startedAt: Date;
  /** When its last transition ran. */
  readonly updatedAt: Date;
  /** When it completed. */
  readonly completedAt?: Date;
  /** Who ended it, when an operator did (`instanceEnd`): the actor's id. */
  readonly endedBy?: string;
}

/**
 * A message an instance handled: an event (by its id), a deadline (by its token), or an
 * operator's end (`instanceEnd`, by `end:<version>`).
 */
export interface ProcessMessage extends ProcessInstanceRef {
  /** The event's id, the deadline's token, or `end:<version>`. */
  readonly messageId: string;
  /** An event, a deadline, or an operator's end. */
  readonly kind: ProcessMessageKind;
  /** The event's type, the deadline's name, or the operator's id (an end). */
  readonly name: string;
  /** When it was handled (or parked). */
  readonly handledAt: Date;
  /**
   * True while it waits for its instance to start: an event that arrived before the event that
   * starts its instance (the relay promises no order) is parked, and handled right after the
   * start, in the order it arrived.
   */
  readonly parked: boolean;
}

/** What an instance's history holds: events handled, deadlines fired, operators' ends. */
export type ProcessMessageKind = "event" | "deadline" | "operator";

/**
 * The tenants a read or an operator's action reaches (as `tenantsReached` answers them): none
 * given, every tenant's instances; else the tenant's and the elevated ones'.
 */
export interface ProcessReach {
  /** The tenant of the work ('' stands for instances without a tenant). */
  readonly tenantId?: string;
  /** The tenants the work is elevated to, beside its own. */
  readonly elevatedTenants?: readonly string[];
}

/** How many instances a process has, by status, among the tenants reached. */
export interface ProcessInstanceCounts {
  /** The process's name. */
  readonly process: string;
  /** Waiting for events or deadlines. */
  readonly active: number;
  /** Completed (or ended by an operator), kept until purged. */
  readonly completed: number;
}

/** What {@linkcode ProcessStore.instanceList} takes. */
export interface ProcessInstanceListParams {
  /** The process's name. */
  readonly process: string;
  /** Only the instances of this status. */
  readonly status?: ProcessInstanceStatus;
  /** The tenants reached. */
  readonly reach: ProcessReach;
  /** The most instances answered (1 to {@linkcode processPageMaxLimit}). */
  readonly limit: number;
  /** The cursor a previous page answered as `next`. */
  readonly after?: string;
}

/** The most instances one page answers. */
export const processPageMaxLimit = 200;

/** A page of instances, by tenant then key; `next` is the cursor of the next page. */
export interface ProcessInstancePage {
  /** The instances, by tenant then key (code-unit order). */
  readonly instances: readonly ProcessInstance[];
  /** The cursor of the next page, when there may be one. */
  readonly next?: string;
}

/** What {@linkcode ProcessStore.instanceEnd} takes. */
export interface ProcessInstanceEndParams extends ProcessInstanceRef, ProcessStoreUnit {
  /** The tenants the operator reaches: another tenant's instance is not found. */
  readonly reach: ProcessReach;
  /** The operator's id (kept as `endedBy` and in the history). */
  readonly by: string;
  /** The time of the end. */
  readonly now: Date;
}

/** The unit of work a read or write of a process store joins. */
export interface ProcessStoreUnit {
  /** The unit of work (the delivery's, or the deadline job's). */
  readonly unit: UnitOfWork;
}

/** What {@linkcode ProcessStore.messageMark} takes. */
export interface ProcessMessageMarkParams extends ProcessInstanceRef, ProcessStoreUnit {
  /** The event's id, or the deadline's token. */
  readonly messageId: string;
  /** An event or a deadline. */
  readonly kind: "event" | "deadline";
  /** The event's type, or the deadline's name. */
  readonly name: string;
  /** The time of the transition. */
  readonly now: Date;
  /** The event (as JSON), when it is parked until its instance starts. */
  readonly parked?: JsonValue;
}

/** What {@linkcode ProcessStore.instanceSave} takes. */
export interface ProcessInstanceSaveParams extends ProcessStoreUnit {
  /** The instance as it is to be kept, with the version it was loaded at (0: a new one). */
  readonly instance: ProcessInstance;
}

/** What {@linkcode ProcessStore.instancePurgeCompleted} takes. */
export interface ProcessPurgeParams {
  /** Completed instances completed before this instant are deleted, with their messages. */
  readonly before: Date;
}

/**
 * Where process instances are kept, per tenant, with versions: the in-memory store (tests) and
 * `PostgresProcessStore` (`@kit/kernel/postgres`). Writes join the unit of work of the transition
 * (the event's delivery, the deadline's job): the instance, its handled messages and its deadline
 * jobs commit together, or not at all. Every store passes the contract of
 * `@kit/jobs/testing` (`processManagerContract`).
 */
export interface ProcessStore {
  /** The instance, in the unit of work (seeing its own writes); undefined when none. */
  instanceLoad(params: ProcessInstanceRef & ProcessStoreUnit): Promise<ProcessInstance | undefined>;
  /**
   * Keeps the instance at `instance.version + 1` when the kept one is still at
   * `instance.version` (0: none kept); answers the new version. Otherwise a
   * `ConcurrentUpdateError` (`CONCURRENT_UPDATE`) and nothing changes.
   */
  instanceSave(params: ProcessInstanceSaveParams): Promise<number>;
  /**
   * Records that the instance handled the message, in the unit of work; false when it was
   * recorded already (a duplicate: the outbox delivered the event again, or the deadline's job
   * ran again).
   */
  messageMark(params: ProcessMessageMarkParams): Promise<boolean>;
  /**
   * Takes the events parked for the instance, in the order they arrived, in the unit of work:
   * they are no longer parked (handled, with the start that takes them).
   */
  messageTakeParked(params: ProcessInstanceRef & ProcessStoreUnit): Promise<JsonValue[]>;
  /** The messages the instance handled, oldest first (its history, for operators). */
  messageList(params: ProcessInstanceRef): Promise<ProcessMessage[]>;
  /** Each process's instances by status, among the tenants reached (processes with none left out). */
  instanceCount(params: { readonly reach: ProcessReach }): Promise<ProcessInstanceCounts[]>;
  /**
   * A page of a process's instances among the tenants reached, by tenant then key; a cursor that
   * is not one a page answered is a `TypeError`.
   */
  instanceList(params: ProcessInstanceListParams): Promise<ProcessInstancePage>;
  /** The instance, committed, when the reach includes its tenant; undefined otherwise. */
  instanceRead(
    params: ProcessInstanceRef & { readonly reach: ProcessReach },
  ): Promise<ProcessInstance | undefined>;
  /**
   * Ends an active instance as an operator, in the unit of work: it is kept completed, with
   * `endedBy`, no deadline pending and one version more, and its history records the end
   * (`operator`, named after the operator). Answers the instance as it was (its pending
   * deadlines: cancel their jobs in the same unit); undefined when there is no active instance
   * of that ref the reach includes. Hold the instance's lock (`kit:process:[process, tenant,
   * key]`) as a transition does.
   */
  instanceEnd(params: ProcessInstanceEndParams): Promise<ProcessInstance | undefined>;
  /**
   * Deletes completed instances completed before `before`, with their messages, and the events
   * parked before `before` for an instance that never started; answers how many instances.
   */
  instancePurgeCompleted(params: ProcessPurgeParams): Promise<number>;
}

/** The token of the process store. */
export const ProcessStore: Token<ProcessStore> = token<ProcessStore>("ProcessStore");
