import { drizzle } from "drizzle-orm/postgres-js";
import { ignoreWithout, withTestDatabase } from "../test_support/services.ts";
import { jobStoreContract } from "@kit/jobs/testing";
import { createJobTables, DrizzleJobStore, DrizzleTransactions } from "./mod.ts";

jobStoreContract({
  name: "DrizzleJobStore",
  ignore: ignoreWithout("DATABASE_URL"),
  open: () =>
    new Promise((resolveOpen, rejectOpen) => {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const done = withTestDatabase(async ({ sql, schema }) => {
        const db = drizzle(sql as never);
        await createJobTables(db, schema);
        resolveOpen({
          store: new DrizzleJobStore(db, { schema }),
          transactions: new DrizzleTransactions(db),
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
