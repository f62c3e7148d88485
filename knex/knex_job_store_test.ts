import knex from "knex";
import { ignoreWithout, withTestDatabase } from "../test_support/services.ts";
import { jobStoreContract } from "@kit/jobs/testing";
import { createJobTable, currentKnex, KnexJobStore, KnexTransactions } from "./mod.ts";
import { ormJobsCases } from "../test_support/orm_jobs_cases.ts";

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

ormJobsCases("KnexJobStore", (fn) =>
  withTestDatabase(async ({ url, schema }) => {
    const db = knex({
      client: "pg",
      connection: url,
      searchPath: [schema],
      pool: { min: 0, max: 4 },
    });
    try {
      await createJobTable(db, schema);
      await db.schema.createTable("appointments", (table) => table.text("id").primary());
      await fn({
        transactions: new KnexTransactions(db),
        store: ({ listen }) => new KnexJobStore(db, { schema, listen }),
        insertAppointment: async (id) => {
          await currentKnex(db)("appointments").insert({ id });
        },
        divideByZero: async () => {
          await currentKnex(db).raw("select 1 / 0");
        },
        count: async (table) => {
          const [row] = await db(table).count<{ n: string }[]>({ n: "*" });
          return Number(row!.n);
        },
      });
    } finally {
      await db.destroy();
    }
  }));
