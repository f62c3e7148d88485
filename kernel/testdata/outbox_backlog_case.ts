/**
 * The case of `Outbox.backlog` every outbox passes (in memory and on PostgreSQL).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import type { IntegrationEvent } from "../events/integration_event.ts";
import type { Outbox } from "../events/outbox.ts";

const t0 = Date.parse("2026-03-01T09:00:00.000Z");
const at = (ms: number): Date => new Date(t0 + ms);

function event(id: string, occurredMs: number, tenantId?: string): IntegrationEvent {
  return {
    id,
    type: "scheduling.appointment.booked",
    version: 1,
    occurredAt: at(occurredMs).toISOString(),
    payload: { appointmentId: id },
    ...(tenantId === undefined ? {} : { tenantId }),
  };
}

/**
 * Appends events for two handlers, delivers one, fails one (retrying) and kills one (dead), then
 * checks the backlog of every tenant and of one.
 */
export async function outboxBacklogCase(
  outbox: Outbox,
  transactions: TransactionManager,
): Promise<void> {
  outbox.subscribe(
    new Map([["scheduling.appointment.booked", ["billing.invoice", "notifications.notify"]]]),
  );
  assert.deepEqual(await outbox.backlog(), []);
  const events = [
    event("e1", 0, "t1"),
    event("e2", 1_000, "t2"),
    event("e3", 2_000, "t1"),
    event("e4", 3_000),
  ];
  for (const e of events) await transactions.run((unit) => outbox.append(e, unit));
  // notifications.notify: e1 delivered, e2 retrying, e3 dead; e4 pending, never tried.
  const claimed = await outbox.claim({
    now: at(10_000),
    limit: 3,
    leaseMs: 60_000,
    handlers: { "notifications.notify": 3 },
  });
  assert.deepEqual(claimed.map((d) => d.event.id), ["e1", "e2", "e3"]);
  await transactions.run((unit) => outbox.complete([claimed[0]!], unit));
  await outbox.fail(claimed[1]!, { error: "refused", now: at(10_000), retryAt: at(20_000) });
  await outbox.fail(claimed[2]!, { error: "gone", now: at(10_000) });

  assert.deepEqual(await outbox.backlog(), [
    {
      handler: "billing.invoice",
      pending: 4,
      oldestPendingAt: at(0),
      retrying: 0,
      dead: 0,
    },
    {
      handler: "notifications.notify",
      pending: 2,
      oldestPendingAt: at(1_000),
      retrying: 1,
      dead: 1,
    },
  ]);
  // Only the events of t1: e1 and e3 (e4 has no tenant).
  assert.deepEqual(await outbox.backlog({ tenants: ["t1"] }), [
    { handler: "billing.invoice", pending: 2, oldestPendingAt: at(0), retrying: 0, dead: 0 },
    { handler: "notifications.notify", pending: 0, retrying: 0, dead: 1 },
  ]);
  assert.deepEqual(await outbox.backlog({ tenants: ["t9"] }), []);
}
