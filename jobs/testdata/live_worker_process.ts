/**
 * A worker in its own process, for the live-workers tests: on PostgreSQL (`DATABASE_URL`,
 * `TEST_SCHEMA`) or, with `LIVE_WORKER_STORE=redis`, Redis (`REDIS_URL`, `REDIS_PREFIX`), registers as `WORKER_ID` with its host and
 * pid, heartbeats every 300 ms (live 3 s after each: a process starved by a loaded machine for a second is not taken for gone), runs one `faults.hang` job at a time forever
 * (printing `running <id> <attempt>`), until it is killed.
 */
import postgres from "postgres";
import { Redis as IORedis } from "ioredis";
import { type BackgroundJobExecution, composeApplication, defineModule } from "@kit/kernel";
import { Background, jobsPlugin, type JobStore } from "@kit/jobs";
import { PostgresJobStore } from "@kit/jobs/postgres";
import { RedisJobStore, tcpScripting } from "@kit/jobs/redis";

@Background({ lease: "6s" })
class Hang {
  static readonly jobName = "faults.hang";
  run(_payload: unknown, execution: BackgroundJobExecution): Promise<void> {
    console.log(`running ${execution.jobId} ${execution.attempt}`);
    return new Promise(() => {});
  }
}

function openStore(): JobStore {
  if (Deno.env.get("LIVE_WORKER_STORE") === "redis") {
    return new RedisJobStore(tcpScripting(new IORedis(Deno.env.get("REDIS_URL")!)), {
      prefix: Deno.env.get("REDIS_PREFIX")!,
      requireDurability: "off",
    });
  }
  const sql = postgres(Deno.env.get("DATABASE_URL")!, {
    max: 3,
    onnotice: () => {},
    connection: { search_path: Deno.env.get("TEST_SCHEMA")! },
  });
  return new PostgresJobStore(sql);
}

const app = composeApplication({
  modules: [defineModule("faults", { declarations: [Hang] })],
  plugins: {
    backgroundJobs: jobsPlugin({
      store: openStore(),
      start: true,
      concurrency: 1,
      pollInterval: "50ms",
      worker: {
        id: Deno.env.get("WORKER_ID")!,
        host: Deno.hostname(),
        pid: Deno.pid,
        heartbeatInterval: "300ms",
        heartbeatTtl: "3s",
        rescueInterval: "300ms",
      },
    }),
  },
});
await app.start();
console.log("ready");
