import postgres from "postgres";
import {
  currentSql,
  migrateKernel,
  PostgresOutbox,
  PostgresTransactions,
} from "@kit/kernel/postgres";
import { fileSchema } from "../../test_support/file_schema.ts";
import { sqlJobStoreCases } from "../../test_support/sql_job_store_cases.ts";
import { jobSchema, unitDatabaseCases } from "../../test_support/unit_database_cases.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";

// The job tables are migrated once for the file, emptied before each case.
const withSchema = fileSchema(async ({ sql }) => {
  await migrateJobs(sql);
  await sql`create table appointments (id text primary key)`;
});

sqlJobStoreCases("PostgresJobStore", (fn) =>
  withSchema(async ({ sql }) => {
    await fn({
      transactions: new PostgresTransactions(sql),
      store: ({ listen }) => new PostgresJobStore(sql, { listen }),
      insertAppointment: async (id) => {
        await currentSql(sql)`insert into appointments (id) values (${id})`;
      },
      divideByZero: async () => {
        await currentSql(sql)`select 1 / 0`;
      },
      count: async (table) =>
        (await sql`select count(*)::int as n from ${sql(table)}`)[0]!.n as number,
    });
  }));

// A store (and the kernel's outbox) on another client than the unit's: refused on another
// database, written on the same.
unitDatabaseCases("PostgresJobStore", {
  storeName: "PostgresJobStore",
  outboxName: "PostgresOutbox",
  migrate: async (url) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrateJobs(sql, { schema: jobSchema });
      await migrateKernel(sql, { schema: jobSchema });
    } finally {
      await sql.end({ timeout: 5 });
    }
  },
  open: (url) => {
    // The outbox's tables on the search path (`appointments` in public).
    const connection = { search_path: `${jobSchema},public` };
    const sql = postgres(url, { max: 4, onnotice: () => {}, connection });
    return Promise.resolve({
      transactions: new PostgresTransactions(sql),
      store: () => new PostgresJobStore(sql, { schema: jobSchema, listen: false }),
      outbox: () => new PostgresOutbox(sql, { listen: false }),
      insertAppointment: async (id) => {
        await currentSql(sql)`insert into appointments (id) values (${id})`;
      },
      close: () => sql.end({ timeout: 5 }),
    });
  },
});
