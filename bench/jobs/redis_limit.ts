/**
 * The limit row of the Redis jobs table: Redis moving jobs through bare lists as fast as the
 * kit worker's pattern allows, with nothing else (no script, no hash per job, no lease).
 *
 * The jobs are pushed first (`LPUSH` of their payloads, pipelined 1,000 at a time, not timed, as
 * every processing row enqueues before its clock starts). Then `limitClients` ioredis connections
 * (the worker's store calls in flight: one claim, one completion batch) each loop until the list
 * is empty: one pipeline of `LMOVE <wait> <active:client> RIGHT LEFT` per job of kit's claim
 * batch (a claim), then one pipeline of `LMOVE <active:client> <done> RIGHT LEFT` per job claimed
 * (its completion): two round trips and two list moves per batch, as kit's claim and completion
 * scripts are two round trips per batch. The rate is the jobs in `done` per second from the first
 * claim to the last completion. The keys (`kit_limit:*`) are deleted before and after.
 */
import { Redis } from "ioredis";
import { type ClaimBatch, limitClients } from "./kit_batches.ts";

/** The keys of the run. */
export const limitKeys = {
  wait: "kit_limit:wait",
  active: (client: number) => `kit_limit:active:${client}`,
  done: "kit_limit:done",
} as const;

/** The size of the k-th claim (from 0) of a client: from min to max, in turn. */
export function claimSize(batch: ClaimBatch, k: number): number {
  return batch.min + (k % (batch.max - batch.min + 1));
}

/** Pushes `jobs` jobs, then moves them with `limitClients` clients; answers jobs/s. */
export async function redisLimit(
  url: string,
  db: number,
  jobs: number,
  batch: ClaimBatch,
): Promise<{ rate: number; jobs: number }> {
  const clients = Array.from({ length: limitClients }, () => new Redis(url, { db }));
  const [first] = clients;
  const keys = [limitKeys.wait, limitKeys.done, ...clients.map((_, i) => limitKeys.active(i))];
  try {
    await first!.del(...keys);
    for (let from = 0; from < jobs; from += 1_000) {
      const pipeline = first!.pipeline();
      for (let n = from; n < Math.min(jobs, from + 1_000); n++) {
        pipeline.lpush(limitKeys.wait, JSON.stringify({ n }));
      }
      await pipeline.exec();
    }
    await Promise.all(clients.map((client) => client.ping())); // connected before the clock
    const started = performance.now();
    await Promise.all(clients.map((client, i) => moveAll(client, i, batch)));
    const seconds = (performance.now() - started) / 1000;
    const done = await first!.llen(limitKeys.done);
    if (done !== jobs) throw new Error(`moved ${done} of ${jobs} jobs`);
    return { rate: done / seconds, jobs: done };
  } finally {
    await first!.del(...keys).catch(() => {});
    for (const client of clients) client.disconnect();
  }
}

async function moveAll(client: Redis, i: number, batch: ClaimBatch): Promise<void> {
  const active = limitKeys.active(i);
  for (let k = 0;; k++) {
    const claim = client.pipeline();
    for (let j = 0; j < claimSize(batch, k); j++) {
      claim.lmove(limitKeys.wait, active, "RIGHT", "LEFT");
    }
    const claimed = (await claim.exec() ?? []).filter(([error, job]) => {
      if (error) throw error;
      return job !== null;
    }).length;
    if (claimed === 0) return;
    const complete = client.pipeline();
    for (let j = 0; j < claimed; j++) complete.lmove(active, limitKeys.done, "RIGHT", "LEFT");
    for (const [error] of await complete.exec() ?? []) if (error) throw error;
  }
}
