import knex, { type Knex } from "knex";
import { fileSchema } from "../test_support/file_schema.ts";
import { sqlJobStoreCases } from "../test_support/sql_job_store_cases.ts";
import { jobSchema, unitDatabaseCases } from "../test_support/unit_database_cases.ts";
import {
  createJobTable,
  createKernelTables,
  currentKnex,
  KnexJobStore,
  KnexOutbox,
  KnexTransactions,
} from "./mod.ts";

/** Runs `fn` on a Knex of its own on the schema, destroyed afterwards. */
async function withKnex(
  url: string,
  schema: string,
  fn: (db: Knex) => Promise<void>,
): Promise<void> {
  const db = knex({
    client: "pg",
    connection: url,
    searchPath: [schema],
    pool: { min: 0, max: 4 },
  });
  try {
    await fn(db);
  } finally {
    await db.destroy();
  }
}

// The job table is created once for the file, emptied before each case.
const withSchema = fileSchema(({ url, schema }) =>
  withKnex(url, schema, async (db) => {
    await createJobTable(db, schema);
    await db.schema.createTable("appointments", (table) => table.text("id").primary());
  })
);

sqlJobStoreCases(
  "KnexJobStore",
  (fn) =>
    withSchema(({ url, schema }) =>
      withKnex(url, schema, async (db) => {
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
      })
    ),
);

/** A Knex of its own on the database at `url`. */
function openKnex(url: string): Knex {
  return knex({ client: "pg", connection: url, pool: { min: 0, max: 4 } });
}

// A store on another client than the unit's: refused on another database, written on the same.
unitDatabaseCases("KnexJobStore", {
  storeName: "KnexJobStore",
  outboxName: "KnexOutbox",
  migrate: async (url) => {
    const db = openKnex(url);
    try {
      await createJobTable(db, jobSchema);
      await createKernelTables(db, jobSchema);
    } finally {
      await db.destroy();
    }
  },
  open: (url) => {
    const db = openKnex(url);
    return Promise.resolve({
      transactions: new KnexTransactions(db),
      store: () => new KnexJobStore(db, { schema: jobSchema, listen: false }),
      outbox: () => new KnexOutbox(db, { schema: jobSchema, listen: false }),
      insertAppointment: async (id) => {
        await currentKnex(db)("appointments").insert({ id });
      },
      close: () => db.destroy(),
    });
  },
});
