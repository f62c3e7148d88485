import knex from "knex";
import { ignoreWithout, withTestDatabase } from "../test_support/services.ts";
import { jobStoreContract } from "@kit/jobs/testing";
import { createJobTable, KnexJobStore, KnexTransactions } from "./mod.ts";

jobStoreContract({
  name: "KnexJobStore",
  ignore: ignoreWithout("DATABASE_URL"),
  open: () =>
    new Promise((resolveOpen, rejectOpen) => {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const done = withTestDatabase(async ({ url, schema }) => {
        const db = knex({ client: "pg", connection: url, pool: { min: 0, max: 4 } });
        try {
          await createJobTable(db, schema);
          resolveOpen({
            store: new KnexJobStore(db, { schema }),
            transactions: new KnexTransactions(db),
            close: async () => {
              finish();
              await done;
            },
          });
          await finished;
        } finally {
          await db.destroy();
        }
      });
      done.catch(rejectOpen);
    }),
});
