import type { ExecutionContext } from "../actor/execution_context.ts";
import { currentScope, runInScope } from "../unit_of_work/work_scope.ts";

/** What an elevation records before it runs: who reached which tenants, and why. */
export interface ElevationRecord {
  /** The actor of the work that elevated. */
  readonly actorId: string;
  /** The tenant the work ran for before, if any. */
  readonly tenantId?: string;
  /** The tenants it now reaches besides its own. */
  readonly tenants: readonly string[];
  /** Why: said by the code that elevates (an operator's ticket, a support case). */
  readonly reason: string;
  /** The correlation of the work. */
  readonly correlationId: string;
}

/** An elevation: the tenants, the reason, and where it is audited. */
export interface Elevation {
  /** The tenants the work may reach besides its own (at least one). */
  readonly tenants: readonly string[];
  /** Why (non-empty): kept in the audit record. */
  readonly reason: string;
  /**
   * Keeps the record before the work runs (the audit trail); when it fails, nothing runs.
   */
  readonly audit: (record: ElevationRecord) => void | Promise<void>;
}

/**
 * Runs `work` with the work under way reaching more tenants: the explicit, audited way across
 * tenants for a user's or service's work (an operator looking into a practice's jobs). The record
 * is kept first; the elevation ends with `work`. Outside any work, or without tenants or a reason,
 * it throws.
 *
 * @example An operator finds a job of another tenant
 * ```ts ignore
 * await runElevated(
 *   { tenants: ["practice-2"], reason: "ticket 4711", audit: (r) => auditTrail.record(...) },
 *   () => jobs.find(jobId),
 * );
 * ```
 */
export async function runElevated<T>(elevation: Elevation, work: () => Promise<T>): Promise<T> {
  const scope = currentScope();
  if (scope === undefined) {
    throw new Error(
      "runElevated() elevates the work under way: call it inside a command, a job or a request",
    );
  }
  const tenants = [...new Set(elevation.tenants)];
  if (tenants.length === 0 || tenants.some((t) => typeof t !== "string" || t.length === 0)) {
    throw new TypeError(
      `runElevated() takes non-empty tenant ids, got ${JSON.stringify(elevation.tenants)}`,
    );
  }
  if (typeof elevation.reason !== "string" || elevation.reason.trim().length === 0) {
    throw new TypeError("runElevated() needs the reason for the elevation, for its audit record");
  }
  const before = scope.execution;
  await elevation.audit({
    actorId: before.actor.id,
    ...(before.tenantId === undefined ? {} : { tenantId: before.tenantId }),
    tenants,
    reason: elevation.reason,
    correlationId: before.correlationId,
  });
  const execution: ExecutionContext = {
    ...before,
    elevatedTenants: [...new Set([...(before.elevatedTenants ?? []), ...tenants])],
    correlationId: before.correlationId,
  };
  return await runInScope({ ...scope, execution }, work);
}
