import {
  migrateKernel,
  migrateProcesses,
  PostgresOutbox,
  PostgresProcessStore,
  PostgresTransactions,
} from "@kit/kernel/postgres";
import { ignoreWithout } from "../../test_support/services.ts";
import { fileSchema } from "../../test_support/file_schema.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import { processManagerContract } from "../testing/process_manager_contract.ts";

// The instances live in a schema of their own (the context's), the outbox and the jobs in the
// test's search path: migrated once for the file, emptied before each case.
const withSchema = fileSchema(async ({ sql, schema }) => {
  await migrateKernel(sql);
  await migrateJobs(sql);
  await migrateProcesses(sql, { schema: `${schema}_appointments` });
}, { max: 10 });

processManagerContract({
  name: "PostgresProcessStore",
  ignore: ignoreWithout("DATABASE_URL"),
  open: () =>
    new Promise((resolveOpen, rejectOpen) => {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const done = withSchema(async ({ sql, schema }) => {
        const context = `${schema}_appointments`;
        resolveOpen({
          store: new PostgresProcessStore(sql, { schema: context }),
          jobs: new PostgresJobStore(sql),
          outbox: new PostgresOutbox(sql, { listen: false }),
          transactions: new PostgresTransactions(sql),
          close: async () => {
            finish();
            await done;
          },
        });
        await finished;
      });
      done.catch(rejectOpen);
    }),
});
