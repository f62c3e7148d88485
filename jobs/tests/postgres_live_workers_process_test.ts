/**
 * The dashboard lists the live workers of a PostgreSQL store, tested with two worker processes,
 * one killed (`../testdata/live_workers_scenario.ts`).
 */
import { PostgresTransactions } from "@kit/kernel/postgres";
import { pgTest } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import { liveWorkersScenario } from "../testdata/live_workers_scenario.ts";

pgTest(
  "PostgreSQL: the dashboard lists two worker processes live; once one is killed, only the other, its job shown as the job of a worker gone, then back to waiting",
  async ({ sql, url, schema }) => {
    await migrateJobs(sql);
    const goneAfterMs = await liveWorkersScenario(
      new PostgresJobStore(sql),
      { LIVE_WORKER_STORE: "postgres", DATABASE_URL: url, TEST_SCHEMA: schema },
      new PostgresTransactions(sql),
    );
    console.log(`w-a shown gone ${goneAfterMs} ms after SIGKILL (heartbeat ttl 3 s)`);
  },
);
