import type { Actor } from "./actor.ts";
import type { Session } from "./session.ts";

/** Where a piece of work came from. */
export type ExecutionOrigin =
  | "http"
  | "queue"
  | "schedule"
  | "event"
  | "cli"
  | "test"
  | (string & Record<never, never>);

/**
 * The context every piece of work runs in: who does it, for which tenant, and how it relates to
 * the work that caused it.
 */
export interface ExecutionContext {
  /** Where the work came from. */
  readonly origin: ExecutionOrigin;
  /** Who does the work. */
  readonly actor: Actor;
  /** The caller's session, for work started by a request. */
  readonly session?: Session;
  /** The tenant the work is done for, when it carries one. */
  readonly tenantId?: string;
  /**
   * Tenants, beyond `tenantId`, whose jobs this work may find and cancel (an operator's
   * elevation).
   */
  readonly elevatedTenants?: readonly string[];
  /** Shared by every piece of work that one request or message started. */
  readonly correlationId: string;
  /** The id of what caused this work (the job id of a run, the event id of a reaction). */
  readonly causationId?: string;
  /** When the work must be over (a job's start plus its timeout). */
  readonly deadline?: Date;
}
