/**
 * A worker in its own process, for the live-workers test: registers as `WORKER_ID` with its host
 * and pid, heartbeats every 200 ms (live 1 s after each), runs one `faults.hang` job at a time
 * forever (printing `running <id> <attempt>`), until it is killed.
 */
import postgres from "postgres";
import { type BackgroundJobExecution, composeApplication, defineModule } from "@kit/kernel";
import { Background, jobsPlugin } from "@kit/jobs";
import { PostgresJobStore } from "@kit/jobs/postgres";

@Background({ lease: "2s" })
class Hang {
  static readonly jobName = "faults.hang";
  run(_payload: unknown, execution: BackgroundJobExecution): Promise<void> {
    console.log(`running ${execution.jobId} ${execution.attempt}`);
    return new Promise(() => {});
  }
}

const sql = postgres(Deno.env.get("DATABASE_URL")!, {
  max: 3,
  onnotice: () => {},
  connection: { search_path: Deno.env.get("TEST_SCHEMA")! },
});
const app = composeApplication({
  modules: [defineModule("faults", { declarations: [Hang] })],
  plugins: {
    backgroundJobs: jobsPlugin({
      store: new PostgresJobStore(sql),
      start: true,
      concurrency: 1,
      pollInterval: "50ms",
      worker: {
        id: Deno.env.get("WORKER_ID")!,
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
console.log("ready");
