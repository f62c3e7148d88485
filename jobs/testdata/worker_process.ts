/**
 * A worker in its own process, for the fault tests: runs `faults.hang` jobs forever (printing
 * `running <id> <attempt>`), until it is killed.
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
  max: 2,
  onnotice: () => {},
  connection: { search_path: Deno.env.get("TEST_SCHEMA")! },
});
const app = composeApplication({
  modules: [defineModule("faults", { declarations: [Hang] })],
  plugins: {
    backgroundJobs: jobsPlugin({
      store: new PostgresJobStore(sql),
      start: true,
      pollInterval: "50ms",
    }),
  },
});
await app.start();
console.log("ready");
