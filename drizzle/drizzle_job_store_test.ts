import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { jobStoreContract } from "@kit/jobs/testing";
import { ignoreWithout, type TestDatabase, withTestDatabase } from "../test_support/services.ts";
import { ormJobsCases } from "../test_support/orm_jobs_cases.ts";
import {
  createJobTables,
  currentDrizzle,
  type DrizzleDatabase,
  DrizzleJobStore,
  DrizzleTransactions,
} from "./mod.ts";

type Driver = "postgres.js" | "node-postgres";

/** Runs `fn` on a Drizzle database of the driver, on a fresh schema with the job tables. */
function withDrizzle(
  driver: Driver,
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
  jobStoreContract({
    name: `DrizzleJobStore (${driver})`,
    ignore: ignoreWithout("DATABASE_URL"),
    open: () =>
      new Promise((resolveOpen, rejectOpen) => {
        let finish!: () => void;
        const finished = new Promise<void>((resolve) => (finish = resolve));
        const done = withDrizzle(driver, async (db, { schema }) => {
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

  ormJobsCases(
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
