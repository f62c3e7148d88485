/**
 * What the store contract's cases share: the case declaration, the instant they start at and a new
 * job. Not exported from `@kit/jobs/testing`: the area files of the contract import it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type TransactionManager, userActor } from "@kit/kernel";
import type { JobStore, NewJob } from "../store/job_store.ts";

/**
 * Declares one case of the contract on a fresh, empty store; `transactions` opens the units of work
 * the store writes in.
 */
export type JobStoreCase = (
  name: string,
  fn: (store: JobStore, transactions: TransactionManager) => Promise<void>,
) => void;

/** The instant the cases start at. */
export const t0 = new Date("2026-05-01T08:00:00.000Z");
/** `ms` after `t0`. */
export const at = (ms: number): Date => new Date(t0.getTime() + ms);
/** Claim settings: every lease 1 s. */
export const leases = { leases: {}, defaultLeaseMs: 1_000 } as const;
let sequence = 0;

/** A new job for the cases (ids ordered by creation). */
export function job(overrides: Partial<NewJob> = {}): NewJob {
  sequence += 1;
  const id = overrides.id ??
    `0190${String(sequence).padStart(4, "0")}-0000-7000-8000-${crypto.randomUUID().slice(-12)}`;
  return {
    id,
    name: "scheduling.clear-calendar",
    queue: "scheduling",
    payload: { calendarId: "c1", appointmentIds: ["a1"], reason: "closing" },
    actor: userActor("u1", { roles: ["practitioner"], attributes: { site: "north" } }),
    correlationId: "corr-1",
    maxAttempts: 3,
    runAt: t0,
    createdAt: t0,
    ...overrides,
  };
}

/** Checks that an attempt holding `leaseToken` may neither report (`stale`) nor complete. */
export async function refusesStale(
  store: JobStore,
  id: string,
  leaseToken: string,
  now: Date,
): Promise<void> {
  assert.equal(await store.jobReport({ id, leaseToken, now, leaseMs: 1_000 }), "stale");
  const later = new Date(now.getTime() + 1);
  assert.equal(await store.jobComplete({ id, leaseToken, now: later }), false);
}

/** Checks that a job waits again with no attempt counted, and that its next claim is attempt 1. */
export async function waitsAfresh(store: JobStore, id: string, now: Date): Promise<void> {
  const found = await store.jobFind({ id, reach: {} });
  assert.equal(found?.status, "waiting");
  assert.equal(found?.attempts, 0);
  const [again] = await store.jobClaim({ queue: "scheduling", limit: 1, now, ...leases });
  assert.equal(again?.id, id);
  assert.equal(again?.attempt, 1);
}
