import type { Outbox, OutboxHandlerBacklog } from "@kit/kernel/outbox";
import type { TenantReach } from "../store/job_store.ts";

/** One handler's undelivered events as the dashboard shows them: the outbox's count, and an age. */
export interface OutboxBacklogView extends OutboxHandlerBacklog {
  /** How long ago the oldest pending delivery's event occurred, in ms on the application's clock. */
  readonly oldestPendingAgeMs?: number;
}

/**
 * The outbox's backlog by handler, of the tenants the reach covers (every tenant's, events of no
 * tenant included, for work that reaches every tenant; else only its tenants' events), each with
 * the age of its oldest pending delivery at `now`.
 */
export async function readOutboxBacklog(
  outbox: Outbox,
  now: Date,
  reach: TenantReach,
): Promise<OutboxBacklogView[]> {
  const tenants = reach.tenantId === undefined
    ? undefined
    : [reach.tenantId, ...(reach.elevatedTenants ?? [])];
  const backlog = await outbox.backlog(tenants === undefined ? {} : { tenants });
  return backlog.map((entry) =>
    entry.oldestPendingAt === undefined ? entry : {
      ...entry,
      oldestPendingAgeMs: Math.max(0, now.getTime() - entry.oldestPendingAt.getTime()),
    }
  );
}
