import knex from "knex";
import { withTestDatabase } from "../test_support/services.ts";
import { sqlJobStoreCases } from "../test_support/sql_job_store_cases.ts";
import { createJobTable, currentKnex, KnexJobStore, KnexTransactions } from "./mod.ts";

sqlJobStoreCases("KnexJobStore", (fn) =>
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
