import {
  migrateKernel,
  migrateProcesses,
  PostgresOutbox,
  PostgresProcessStore,
  PostgresTransactions,
} from "@kit/kernel/postgres";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import { processManagerContract } from "../testing/process_manager_contract.ts";

// The instances live in a schema of their own (the context's), the outbox and the jobs in the
// test's search path.
processManagerContract({
  name: "PostgresProcessStore",
  ignore: ignoreWithout("DATABASE_URL"),
  open: () =>
    new Promise((resolveOpen, rejectOpen) => {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const done = withTestDatabase(async ({ sql, schema }) => {
        const context = `${schema}_appointments`;
        await migrateKernel(sql);
        await migrateJobs(sql);
        await migrateProcesses(sql, { schema: context });
        resolveOpen({
          store: new PostgresProcessStore(sql, { schema: context }),
          jobs: new PostgresJobStore(sql),
          outbox: new PostgresOutbox(sql, { listen: false }),
          transactions: new PostgresTransactions(sql),
          close: async () => {
            await sql.unsafe(`drop schema "${context}" cascade`);
            finish();
            await done;
          },
        });
        await finished;
      }, { max: 10 });
      done.catch(rejectOpen);
    }),
});
