import { currentSql, PostgresTransactions } from "@kit/kernel/postgres";
import { withTestDatabase } from "../../test_support/services.ts";
import { sqlJobStoreCases } from "../../test_support/sql_job_store_cases.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";

sqlJobStoreCases("PostgresJobStore", (fn) =>
  withTestDatabase(async ({ sql }) => {
    await migrateJobs(sql);
    await sql`create table appointments (id text primary key)`;
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
