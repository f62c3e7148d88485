import knex, { type Knex } from "knex";
import { migrateProcesses } from "@kit/kernel/postgres";
import { processManagerContract } from "../jobs/testing/process_manager_contract.ts";
import { ignoreWithout } from "../test_support/services.ts";
import { fileSchema } from "../test_support/file_schema.ts";
import { sqlProcessStoreCases } from "../test_support/sql_process_store_cases.ts";
import {
  createJobTable,
  createKernelTables,
  createProcessTables,
  currentKnex,
  KnexJobStore,
  KnexOutbox,
  KnexProcessStore,
  KnexTransactions,
} from "./mod.ts";

function open(url: string, schema: string): Knex {
  return knex({ client: "pg", connection: url, searchPath: [schema], pool: { min: 0, max: 4 } });
}

// The file's schema holds the kernel's tables, the jobs and `appointments`; the process tables are
// in the context's schema (`<schema>_appointments`), made twice by `createProcessTables` (once in
// a migration's transaction), then by `migrateProcesses`, which finds them as its migrations
// leave them.
const withSchema = fileSchema(async ({ sql, url, schema }) => {
  const db = open(url, schema);
  try {
    await createKernelTables(db, schema);
    await createJobTable(db, schema);
    await createProcessTables(db, `${schema}_appointments`);
    await db.transaction((trx) => createProcessTables(trx, `${schema}_appointments`));
    await migrateProcesses(sql, { schema: `${schema}_appointments` });
    await db.schema.createTable("appointments", (table) => table.text("id").primary());
  } finally {
    await db.destroy();
  }
}, { max: 10 });

processManagerContract({
  name: "KnexProcessStore",
  ignore: ignoreWithout("DATABASE_URL"),
  open: () =>
    new Promise((resolveOpen, rejectOpen) => {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const done = withSchema(async ({ url, schema }) => {
        const db = open(url, schema);
        try {
          resolveOpen({
            store: new KnexProcessStore(db, { schema: `${schema}_appointments` }),
            jobs: new KnexJobStore(db, { schema, listen: false }),
            outbox: new KnexOutbox(db, { listen: false }),
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

sqlProcessStoreCases("KnexProcessStore", (fn) =>
  withSchema(async ({ url, schema }) => {
    const db = open(url, schema);
    try {
      await fn({
        transactions: new KnexTransactions(db),
        store: new KnexProcessStore(db, { schema: `${schema}_appointments` }),
        names: { store: "KnexProcessStore", transactions: "KnexTransactions" },
        insertAppointment: async (id) => {
          await currentKnex(db)("appointments").insert({ id });
        },
        appointments: async () => {
          const [row] = await db("appointments").count<{ n: string }[]>({ n: "*" });
          return Number(row!.n);
        },
      });
    } finally {
      await db.destroy();
    }
  }));
