import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import postgres from "postgres";
import type { TestDatabase } from "../test_support/services.ts";
import { fileSchema } from "../test_support/file_schema.ts";
import { sqlJobStoreCases } from "../test_support/sql_job_store_cases.ts";
import { jobSchema, unitDatabaseCases } from "../test_support/unit_database_cases.ts";
import {
  createJobTables,
  createKernelTables,
  currentDrizzle,
  type DrizzleDatabase,
  DrizzleJobStore,
  DrizzleOutbox,
  DrizzleTransactions,
} from "./mod.ts";

type Driver = "postgres.js" | "node-postgres";

/** Runs `fn` on a Drizzle database of the driver, on the test's schema. */
async function withDrizzle(
  driver: Driver,
  test: TestDatabase,
  fn: (db: DrizzleDatabase) => Promise<void>,
): Promise<void> {
  // Drizzle changes the client's date parsers: the test's client serves Drizzle only.
  if (driver === "postgres.js") return await fn(drizzle(test.sql as never));
  const options = `-c search_path=${test.schema}`;
  const pool = new pg.Pool({ connectionString: test.url, max: 4, options });
  try {
    await fn(drizzlePg(pool));
  } finally {
    await pool.end();
  }
}

for (const driver of ["postgres.js", "node-postgres"] as const) {
  // A schema per driver, its job tables created by the driver once for the file, emptied before
  // each case.
  const withSchema = fileSchema((test) =>
    withDrizzle(driver, test, async (db) => {
      await createJobTables(db, test.schema);
      await test.sql`create table appointments (id text primary key)`;
    })
  );
  sqlJobStoreCases(
    `DrizzleJobStore (${driver})`,
    (fn) =>
      withSchema((test) =>
        withDrizzle(driver, test, async (db) => {
          const { sql, schema } = test;
          await fn({
            transactions: new DrizzleTransactions(db),
            store: ({ listen }) => new DrizzleJobStore(db, { schema, listen }),
            insertAppointment: async (id) => {
              await currentDrizzle(db).execute(dsql`insert into appointments (id) values (${id})`);
            },
            divideByZero: async () => {
              await currentDrizzle(db).execute(dsql`select 1 / 0`);
            },
            count: async (table) =>
              (await sql`select count(*)::int as n from ${sql(table)}`)[0]!.n as number,
          });
        })
      ),
  );
}

/** A Drizzle database of the driver on a client of its own, and the function that closes it. */
function openDrizzle(driver: Driver, url: string): { db: DrizzleDatabase; close(): Promise<void> } {
  if (driver === "postgres.js") {
    const client = postgres(url, { max: 4, onnotice: () => {} });
    return { db: drizzle(client as never), close: () => client.end({ timeout: 5 }) };
  }
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  return { db: drizzlePg(pool), close: () => pool.end() };
}

// A store on another client than the unit's: refused on another database, written on the same.
for (const driver of ["postgres.js", "node-postgres"] as const) {
  unitDatabaseCases(`DrizzleJobStore (${driver})`, {
    storeName: "DrizzleJobStore",
    outboxName: "DrizzleOutbox",
    migrate: async (url) => {
      const { db, close } = openDrizzle(driver, url);
      try {
        await createJobTables(db, jobSchema);
        await createKernelTables(db, jobSchema);
      } finally {
        await close();
      }
    },
    open: (url) => {
      const { db, close } = openDrizzle(driver, url);
      return Promise.resolve({
        transactions: new DrizzleTransactions(db),
        store: () => new DrizzleJobStore(db, { schema: jobSchema, listen: false }),
        outbox: () => new DrizzleOutbox(db, { schema: jobSchema, listen: false }),
        insertAppointment: async (id) => {
          await currentDrizzle(db).execute(dsql`insert into appointments (id) values (${id})`);
        },
        close,
      });
    },
  });
}
