import { currentSql, PostgresTransactions } from "@kit/kernel/postgres";
import { fileSchema } from "../../test_support/file_schema.ts";
import { sqlJobStoreCases } from "../../test_support/sql_job_store_cases.ts";
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
