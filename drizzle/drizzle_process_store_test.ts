import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import postgres from "postgres";
import { migrateProcesses } from "@kit/kernel/postgres";
import { processManagerContract } from "../jobs/testing/process_manager_contract.ts";
import { ignoreWithout } from "../test_support/services.ts";
import { fileSchema } from "../test_support/file_schema.ts";
import { sqlProcessStoreCases } from "../test_support/sql_process_store_cases.ts";
import {
  createJobTables,
  createKernelTables,
  createProcessTables,
  currentDrizzle,
  type DrizzleDatabase,
  DrizzleJobStore,
  DrizzleOutbox,
  DrizzleProcessStore,
  DrizzleTransactions,
} from "./mod.ts";

type Driver = "postgres.js" | "node-postgres";

/** A Drizzle database of the driver on the schema, and the function that closes its client. */
function open(driver: Driver, url: string, schema: string): {
  db: DrizzleDatabase;
  close(): Promise<void>;
} {
  if (driver === "postgres.js") {
    const client = postgres(url, {
      max: 4,
      onnotice: () => {},
      connection: { search_path: schema },
    });
    return { db: drizzle(client as never), close: () => client.end({ timeout: 5 }) };
  }
  const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema}` });
  return { db: drizzlePg(pool), close: () => pool.end() };
}

for (const driver of ["postgres.js", "node-postgres"] as const) {
  // The file's schema holds the kernel's tables, the jobs and `appointments`; the process tables
  // are in the context's schema (`<schema>_appointments`), made twice by `createProcessTables`
  // (idempotent), then by `migrateProcesses`, which finds them as its migrations leave them.
  const withSchema = fileSchema(async ({ sql, url, schema }) => {
    const { db, close } = open(driver, url, schema);
    try {
      await createKernelTables(db, schema);
      await createJobTables(db, schema);
      await createProcessTables(db, `${schema}_appointments`);
      await createProcessTables(db, `${schema}_appointments`);
      await migrateProcesses(sql, { schema: `${schema}_appointments` });
      await sql`create table appointments (id text primary key)`;
    } finally {
      await close();
    }
  }, { max: 10 });

  processManagerContract({
    name: `DrizzleProcessStore (${driver})`,
    ignore: ignoreWithout("DATABASE_URL"),
    open: () =>
      new Promise((resolveOpen, rejectOpen) => {
        let finish!: () => void;
        const finished = new Promise<void>((resolve) => (finish = resolve));
        const done = withSchema(async ({ url, schema }) => {
          const { db, close } = open(driver, url, schema);
          try {
            resolveOpen({
              store: new DrizzleProcessStore(db, { schema: `${schema}_appointments` }),
              jobs: new DrizzleJobStore(db, { schema, listen: false }),
              outbox: new DrizzleOutbox(db, { listen: false }),
              transactions: new DrizzleTransactions(db),
              close: async () => {
                finish();
                await done;
              },
            });
            await finished;
          } finally {
            await close();
          }
        });
        done.catch(rejectOpen);
      }),
  });

  sqlProcessStoreCases(
    `DrizzleProcessStore (${driver})`,
    (fn) =>
      withSchema(async ({ sql, url, schema }) => {
        const { db, close } = open(driver, url, schema);
        try {
          await fn({
            transactions: new DrizzleTransactions(db),
            store: new DrizzleProcessStore(db, { schema: `${schema}_appointments` }),
            names: { store: "DrizzleProcessStore", transactions: "DrizzleTransactions" },
            insertAppointment: async (id) => {
              await currentDrizzle(db).execute(dsql`insert into appointments (id) values (${id})`);
            },
            appointments: async () =>
              (await sql`select count(*)::int as n from appointments`)[0]!.n as number,
          });
        } finally {
          await close();
        }
      }),
  );
}
