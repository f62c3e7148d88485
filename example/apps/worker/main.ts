/**
 * The worker alone: runs the background jobs and scheduled jobs of every context, no HTTP. Deploy
 * it before the code that enqueues a new job name.
 */
import { accessPolicy, composeApplication } from "@kit/kernel";
import { jobsPlugin } from "@kit/jobs";
import postgres from "postgres";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { modules } from "../../src/platform/compose-application.ts";
import { grants } from "../../src/platform/auth/role.ts";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  throw new Error(
    "apps/worker needs DATABASE_URL (the database the API enqueues in)",
  );
}
const sql = postgres(url);
await migrateJobs(sql);
const store = new PostgresJobStore(sql);
const transactions = new PostgresTransactions(sql);
const application = composeApplication({
  modules,
  transactions,
  accessPolicy: accessPolicy({ grants }),
  plugins: { backgroundJobs: jobsPlugin({ store, start: true }) },
});
await application.start();
console.log("worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await application.stop();
    Deno.exit(0);
  });
}
