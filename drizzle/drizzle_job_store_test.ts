import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { type TestDatabase, withTestDatabase } from "../test_support/services.ts";
import { sqlJobStoreCases } from "../test_support/sql_job_store_cases.ts";
import {
  createJobTables,
  currentDrizzle,
  type DrizzleDatabase,
  DrizzleJobStore,
  DrizzleTransactions,
} from "./mod.ts";

/** Runs `fn` on a Drizzle database of the driver, on a fresh schema with the job tables. */
function withDrizzle(
  driver: "postgres.js" | "node-postgres",
  fn: (db: DrizzleDatabase, test: TestDatabase) => Promise<void>,
): Promise<void> {
  return withTestDatabase(async (test) => {
    if (driver === "postgres.js") {
      // Drizzle changes the client's date parsers: the test's client serves Drizzle only.
      const db = drizzle(test.sql as never);
      await createJobTables(db, test.schema);
      return await fn(db, test);
    }
    const options = `-c search_path=${test.schema}`;
    const pool = new pg.Pool({ connectionString: test.url, max: 4, options });
    try {
      const db = drizzlePg(pool);
      await createJobTables(db, test.schema);
      await fn(db, test);
    } finally {
      await pool.end();
    }
  });
}

for (const driver of ["postgres.js", "node-postgres"] as const) {
  sqlJobStoreCases(
    `DrizzleJobStore (${driver})`,
    (fn) =>
      withDrizzle(driver, async (db, { sql, schema }) => {
        await sql`create table appointments (id text primary key)`;
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
      }),
  );
}
