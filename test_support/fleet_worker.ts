/**
 * A worker process of the jobs fleet (`example/test/fleet/jobs-fleet.spec.ts`,
 * `bench/jobs/fleet_scaling.ts`): kit's worker on the job store the environment names,
 * PostgreSQL (`FLEET_STORE=postgres`, `DATABASE_URL`) or Redis (`FLEET_STORE=redis`, `REDIS_URL`,
 * `REDIS_PREFIX`), registered as `WORKER_ID` with its host and pid. Its jobs:
 *
 * - `fleet.work` (queue `fleet`, `CONCURRENCY` slots, `PREFETCH` ahead): waits `WORK_MS`;
 * - `ticks.tick`, scheduled every second (queue `ticks`);
 * - `hold.wait` (queue `hold`, one slot, no prefetch): runs until a row of `fleet_release` says
 *   so.
 *
 * `QUEUES` (default `fleet,ticks,hold`) names the queues it declares, so runs: a worker listens
 * to and is woken for its own queues only.
 *
 * With `RECORD=1`, each run is written to `fleet_runs` of `DATABASE_URL` when it starts (job,
 * attempt, worker, tick) and when it ends, outside the job store: the spec compares the runs with
 * what the store says. Prints "worker started" once it claims.
 *
 * Not published: a program the fleet spec and bench start by path.
 */
import postgres from "postgres";
import { Redis as IORedis } from "ioredis";
import { type BackgroundJobExecution, composeApplication, defineModule } from "@kit/kernel";
import { Background, jobsPlugin, type JobStore, Scheduled, type ScheduledTick } from "@kit/jobs";
import { PostgresJobStore } from "@kit/jobs/postgres";
import { RedisJobStore, tcpScripting } from "@kit/jobs/redis";

const env = (name: string, fallback?: string): string => {
  const value = Deno.env.get(name) ?? fallback;
  if (value === undefined) throw new Error(`fleet_worker needs ${name}`);
  return value;
};
const workerId = env("WORKER_ID");
const workMs = Number(env("WORK_MS", "0"));
const record = env("RECORD", "0") === "1";
const sql = postgres(env("DATABASE_URL"), { max: 3, onnotice: () => {} });

async function started(
  name: string,
  execution: BackgroundJobExecution,
  tick?: string,
): Promise<void> {
  if (!record) return;
  await sql`
    insert into fleet_runs (job_id, name, attempt, worker, tick)
    values (${execution.jobId}, ${name}, ${execution.attempt}, ${workerId},
      ${tick ?? null})`;
}

async function ended(execution: BackgroundJobExecution): Promise<void> {
  if (!record) return;
  await sql`
    update fleet_runs set ended_at = clock_timestamp()
    where job_id = ${execution.jobId} and attempt = ${execution.attempt}`;
}

@Background({ lease: "2s", maxAttempts: 10 })
class Work {
  static readonly jobName = "fleet.work";
  async run(_payload: { n: number }, execution: BackgroundJobExecution): Promise<void> {
    await started(Work.jobName, execution);
    if (workMs > 0) await new Promise((resolve) => setTimeout(resolve, workMs));
    await ended(execution);
  }
}

@Scheduled({ every: "1s", lease: "2s", maxAttempts: 10 })
class Tick {
  static readonly jobName = "ticks.tick";
  async run(payload: ScheduledTick, execution: BackgroundJobExecution): Promise<void> {
    await started(Tick.jobName, execution, payload.tick);
    await ended(execution);
  }
}

@Background({ lease: "2s", maxAttempts: 10 })
class Wait {
  static readonly jobName = "hold.wait";
  async run(_payload: Record<string, never>, execution: BackgroundJobExecution): Promise<void> {
    await started(Wait.jobName, execution);
    while ((await sql`select 1 from fleet_release`).length === 0) {
      execution.signal.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await ended(execution);
  }
}

function openStore(): JobStore {
  if (env("FLEET_STORE") === "redis") {
    return new RedisJobStore(tcpScripting(new IORedis(env("REDIS_URL"))), {
      prefix: env("REDIS_PREFIX"),
      requireDurability: "off",
    });
  }
  return new PostgresJobStore(sql);
}

const modules = [
  defineModule("fleet", { declarations: [Work] }),
  defineModule("ticks", { declarations: [Tick] }),
  defineModule("hold", { declarations: [Wait] }),
];
const queues = env("QUEUES", "fleet,ticks,hold").split(",");
const app = composeApplication({
  modules: modules.filter((module) => queues.includes(module.name)),
  plugins: {
    backgroundJobs: jobsPlugin({
      store: openStore(),
      start: true,
      concurrency: { fleet: Number(env("CONCURRENCY", "4")), ticks: 1, hold: 1 },
      prefetch: { fleet: Number(env("PREFETCH", "0")), ticks: 0, hold: 0 },
      pollInterval: env("POLL_INTERVAL", "1s") as "1s",
      retention: false,
      worker: {
        id: workerId,
        host: Deno.hostname(),
        pid: Deno.pid,
        heartbeatInterval: "200ms",
        heartbeatTtl: "1s",
        rescueInterval: "300ms",
      },
    }),
  },
});
await app.start();
console.log("worker started");
