import { PostgresTransactions } from "@kit/kernel/postgres";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import { jobStoreContract } from "../testing.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";

jobStoreContract({
  name: "PostgresJobStore",
  ignore: ignoreWithout("DATABASE_URL"),
  open: () =>
    new Promise((resolveOpen, rejectOpen) => {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const done = withTestDatabase(async ({ sql }) => {
        await migrateJobs(sql);
        resolveOpen({
          store: new PostgresJobStore(sql),
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
