/**
 * A fleet of worker processes on one job store, PostgreSQL or Redis
 * (`test_support/fleet_worker.ts`, each a process of its own standing in for a machine), under an enqueue load, one of them killed with
 * SIGKILL while it runs jobs and another started during the run. What holds for one worker holds
 * for the fleet:
 *
 * - each attempt the store counted runs at most once, the last one to its end; a job runs again
 *   only when the worker holding it was killed (its lease ended), and what that worker held
 *   (running, ended but its completion not written, claimed ahead and not started) is within its
 *   slots, their completions and its prefetch;
 * - each tick of a scheduled job is one job, run once;
 * - the queue is shared: every worker runs a part of it, none runs more at once than its slots,
 *   none holds more (in the store) than its slots, its prefetch and the attempts whose completion
 *   is being written;
 * - an enqueue wakes every idle worker: three jobs that each hold their worker until released
 *   are run by three workers whose poll interval (60 s) is longer than the spec's wait.
 *
 * Each run is written by the worker to `fleet_runs` on a database of the spec's own (created, then
 * dropped); the store's view comes from its `jobList`. No assertion on time: waits are polls with
 * deadlines.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Redis as IORedis } from "ioredis";
import { systemActor } from "@kit/kernel";
import type { JobStore } from "@kit/jobs";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { RedisJobStore, tcpScripting } from "@kit/jobs/redis";
import { ignoreWithout } from "../../../test_support/services.ts";
import { until } from "../../../test_support/until.ts";
import {
  type FleetDatabase,
  type FleetProcess,
  startProcess,
  stopAll,
  withFleetDatabase,
} from "../../../test_support/fleet_processes.ts";

const workerProgram = fileURLToPath(
  new URL("../../../test_support/fleet_worker.ts", import.meta.url),
);
const concurrency = 3;
const prefetch = 2;
const batches = 40;
const batchSize = 15;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  readonly job_id: string;
  readonly name: string;
  readonly attempt: number;
  readonly worker: string;
  readonly tick: string | null;
  readonly started_at: Date;
  readonly ended_at: Date | null;
}

function newJob(name: string, payload: { n: number }) {
  const now = new Date();
  return {
    id: crypto.randomUUID(),
    name,
    queue: name.split(".")[0]!,
    payload,
    actor: systemActor,
    correlationId: "fleet",
    maxAttempts: 10,
    runAt: now,
    createdAt: now,
  };
}

async function insert(store: JobStore, name: string, count: number, from = 0): Promise<string[]> {
  const jobs = Array.from({ length: count }, (_, i) => newJob(name, { n: from + i }));
  if (store.jobInsertMany !== undefined) await store.jobInsertMany({ jobs });
  else for (const job of jobs) await store.jobInsert({ job });
  return jobs.map((job) => job.id);
}

/** The most runs of one worker that overlapped in time. */
function mostAtOnce(runs: readonly Run[]): number {
  const edges = runs.flatMap((run) => [
    { at: run.started_at.getTime(), step: 1 },
    { at: (run.ended_at ?? run.started_at).getTime(), step: -1 },
  ]).sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const edge of edges) most = Math.max(most, now += edge.step);
  return most;
}

async function jobsFleet(
  db: FleetDatabase,
  store: JobStore,
  storeEnv: Record<string, string>,
): Promise<void> {
  const { sql } = db;
  await sql`
    create table fleet_runs (
      job_id text not null, name text not null, attempt integer not null, worker text not null,
      tick text, started_at timestamptz not null default clock_timestamp(), ended_at timestamptz
    )`;
  await sql`create table fleet_release (released boolean)`;
  const env = {
    ...storeEnv,
    DATABASE_URL: db.url,
    RECORD: "1",
    WORK_MS: "20",
    CONCURRENCY: String(concurrency),
    PREFETCH: String(prefetch),
  };
  const start = (id: string, extra: Record<string, string> = {}) =>
    startProcess(id, workerProgram, { ...env, WORKER_ID: id, ...extra }, "worker started");
  const processes: FleetProcess[] = [];
  try {
    // Three workers of the load and ticks; three idle ones of `hold` only, polling once a minute.
    const started = await Promise.all([
      // w1's jobs take 300 ms, not 20: the SIGKILL sent once it is seen running one lands while
      // that one runs, even when the test process is descheduled for a few ms under load.
      ...["w1", "w2", "w3"].map((id) =>
        start(id, { QUEUES: "fleet,ticks", ...(id === "w1" ? { WORK_MS: "300" } : {}) })
      ),
      ...["h1", "h2", "h3"].map((id) => start(id, { QUEUES: "hold", POLL_INTERVAL: "60s" })),
    ]);
    processes.push(...started);
    const [w1] = started;
    const loadBegan = new Date();

    // What each worker holds (claimed, prefetched or running), sampled all along.
    const mostHeld = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const held = new Map<string, number>();
        for (const job of await store.jobList({ queue: "fleet", status: "running" })) {
          if (job.workerId !== undefined) held.set(job.workerId, (held.get(job.workerId) ?? 0) + 1);
        }
        for (const [id, n] of held) mostHeld.set(id, Math.max(mostHeld.get(id) ?? 0, n));
        await pause(50);
      }
    })();

    // The load: batches of jobs; w1 killed while it runs some; w4 started, the load going on
    // until it has been up for half the batches.
    const ids: string[] = [];
    let w4: Promise<FleetProcess> | undefined;
    let w4Up: number | undefined;
    const enqueuedWhileW4 = () => w4Up === undefined ? 0 : ids.length - w4Up;
    for (let batch = 0; batch < batches || enqueuedWhileW4() < (batches / 2) * batchSize; batch++) {
      ids.push(...await insert(store, "fleet.work", batchSize, ids.length));
      if (batch === batches / 4) {
        await until(
          async () =>
            (await sql`
            select 1 from fleet_runs where worker = 'w1' and name = 'fleet.work'
              and ended_at is null`).length > 0,
          "w1 running jobs",
          { ms: 20_000 },
        );
        await w1!.kill();
        w4 = start("w4", { QUEUES: "fleet,ticks" }).then((process) => {
          processes.push(process);
          w4Up = ids.length;
          return process;
        });
      }
      await pause(60);
    }
    await w4;
    const loadEnded = new Date();

    // Every job succeeds (an enqueue now and then wakes the workers: the jobs of w1 come back
    // when their lease ends).
    await until(
      async () => {
        const jobs = await store.jobList({ queue: "fleet" });
        if (jobs.length === ids.length && jobs.every((job) => job.status === "succeeded")) {
          return true;
        }
        ids.push(...await insert(store, "fleet.work", 1, ids.length));
        await pause(200);
        return false;
      },
      "every fleet.work job succeeded",
      { ms: 30_000 },
    );
    sampling = false;
    await sampler;

    const jobs = await store.jobList({ queue: "fleet" });
    const runs = await sql<Run[]>`select * from fleet_runs where name = 'fleet.work'`;
    const runsOf = Map.groupBy(runs, (run) => run.job_id);
    // Attempts before the last were w1's: run when it was killed (or ended, their completion not
    // written yet), or claimed ahead (prefetched) and never started. Nothing else runs twice.
    let retried = 0;
    let unstarted = 0;
    for (const job of jobs) {
      const its = runsOf.get(job.id) ?? [];
      const attempts = its.map((run) => run.attempt);
      assert.equal(new Set(attempts).size, attempts.length, `job ${job.id}: an attempt ran twice`);
      const last = its.find((run) => run.attempt === job.attempts);
      assert.ok(last?.ended_at, `job ${job.id}: its last attempt (${job.attempts}) ran and ended`);
      for (const run of its) {
        if (run.attempt < job.attempts) {
          assert.equal(run.worker, "w1", `job ${job.id} ran again though its worker lived`);
          retried++;
        }
      }
      unstarted += job.attempts - its.length;
    }
    const interrupted = runs.filter((run) => run.worker === "w1" && run.ended_at === null);
    assert.ok(interrupted.length > 0, "w1 was killed while it ran jobs");
    assert.ok(interrupted.length <= concurrency, `w1 ran ${interrupted.length} jobs at once`);
    // What w1 held when killed: its running attempts, those ended whose completion was not
    // written yet (a slot frees at the run's end, completions go in batches: one per slot at
    // most), and those claimed ahead.
    assert.ok(
      retried + unstarted <= 2 * concurrency + prefetch,
      `w1 held ${retried} runs and ${unstarted} jobs not started: more than its slots, ` +
        `their completions and its prefetch`,
    );
    // The queue shared: each worker alive through the load ran at least a quarter of its share
    // of what was enqueued while it was up; none held more than slots and prefetch, none ran more
    // at once than its slots.
    const byWorker = Map.groupBy(runs, (run) => run.worker);
    const share = (id: string, enqueued: number, workers: number) => {
      const ran = byWorker.get(id)?.length ?? 0;
      assert.ok(
        ran >= enqueued / workers / 4,
        `${id} starved: ran ${ran} of ${enqueued} jobs shared by ${workers} workers`,
      );
    };
    share("w2", ids.length, 3);
    share("w3", ids.length, 3);
    share("w4", enqueuedWhileW4(), 3);
    // A slot frees when its run ends, before the attempt's completion is written (completions
    // go in batches): the store may list one finished attempt per slot besides slots and prefetch.
    for (const [id, held] of mostHeld) {
      assert.ok(held <= 2 * concurrency + prefetch, `${id} held ${held} jobs at once`);
    }
    for (const [id, its] of byWorker) {
      assert.ok(mostAtOnce(its) <= concurrency, `${id} ran ${mostAtOnce(its)} jobs at once`);
    }

    // Each tick one job, run once; no tick of the load's span missed.
    const ticks = await sql<Run[]>`select * from fleet_runs where name = 'ticks.tick'`;
    const tickJobs = new Map((await store.jobList({ queue: "ticks" })).map((job) => [job.id, job]));
    for (const [tick, its] of Map.groupBy(ticks, (run) => run.tick!)) {
      assert.equal(new Set(its.map((run) => run.job_id)).size, 1, `tick ${tick}: one job`);
      const job = tickJobs.get(its[0]!.job_id)!;
      assert.equal(its.length, job.attempts, `tick ${tick}: one run per attempt`);
    }
    const seen = new Set(ticks.map((run) => Date.parse(run.tick!)));
    for (
      let tick = Math.ceil(loadBegan.getTime() / 1000) * 1000 + 2_000;
      tick < loadEnded.getTime() - 2_000;
      tick += 1_000
    ) {
      assert.ok(seen.has(tick), `tick ${new Date(tick).toISOString()} ran`);
    }

    // Wake-ups: three jobs that hold their worker, run by the three idle workers at once.
    const held = await insert(store, "hold.wait", 3);
    await until(
      async () =>
        (await sql`select distinct worker from fleet_runs where name = 'hold.wait'`).length === 3,
      "every idle worker woken (each runs one hold.wait)",
      { ms: 15_000 },
    );
    await sql`insert into fleet_release values (true)`;
    await until(
      async () => {
        const jobs = await store.jobList({ queue: "hold" });
        return jobs.length === 3 && jobs.every((job) => job.status === "succeeded");
      },
      "the hold.wait jobs succeeded",
      { ms: 15_000 },
    );
    assert.deepEqual(
      (await store.jobList({ queue: "hold" })).map((job) => job.attempts),
      held.map(() => 1),
    );
    console.log(
      `  ${jobs.length} jobs by ${byWorker.size} workers (${
        [...byWorker].map(([id, its]) => `${id} ${its.length}`).join(", ")
      }), ${retried} runs and ${unstarted} prefetched jobs of w1 run again after its SIGKILL, ${seen.size} ticks`,
    );
  } finally {
    await stopAll(processes);
  }
}

Deno.test({
  name:
    "A fleet of worker processes on PostgreSQL, one killed and one started under load: each job run once per attempt, ticks once, the queue shared, every idle worker woken",
  ignore: ignoreWithout("DATABASE_URL"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withFleetDatabase(Deno.env.get("DATABASE_URL")!, async (db) => {
      await migrateJobs(db.sql);
      await jobsFleet(db, new PostgresJobStore(db.sql), { FLEET_STORE: "postgres" });
    }),
});

Deno.test({
  name:
    "A fleet of worker processes on Redis, one killed and one started under load: each job run once per attempt, ticks once, the queue shared, every idle worker woken",
  ignore: ignoreWithout("DATABASE_URL") || ignoreWithout("REDIS_URL"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withFleetDatabase(Deno.env.get("DATABASE_URL")!, async (db) => {
      const url = Deno.env.get("REDIS_URL")!;
      const prefix = `fleet-${crypto.randomUUID()}:`;
      const redis = new IORedis(url);
      try {
        const store = new RedisJobStore(tcpScripting(redis), { prefix, requireDurability: "off" });
        await jobsFleet(db, store, { FLEET_STORE: "redis", REDIS_URL: url, REDIS_PREFIX: prefix });
      } finally {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== "0");
        redis.disconnect();
      }
    }),
});
