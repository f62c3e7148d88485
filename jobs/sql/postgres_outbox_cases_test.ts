// The outbox cases the ORM outboxes (`DrizzleOutbox`, `KnexOutbox`, on the statements of
// `kernel/postgres/outbox_statements.ts`) pass, run on kit's postgres.js outbox: both answer alike.
import postgres from "postgres";
import {
  currentSql,
  migrateKernel,
  PostgresOutbox,
  PostgresProcessedEvents,
  PostgresTransactions,
} from "@kit/kernel/postgres";
import { withTestDatabase } from "../../test_support/services.ts";
import { type CountedTable, sqlOutboxCases } from "../../test_support/sql_outbox_cases.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";

sqlOutboxCases("PostgresOutbox", (fn) =>
  withTestDatabase(async ({ sql, url, schema }) => {
    await migrateKernel(sql);
    await migrateJobs(sql);
    await sql`create table appointments (id text primary key)`;
    await sql`create table notifications (appointment_id text not null)`;
    await fn({
      transactions: new PostgresTransactions(sql),
      outbox: ({ listen }) => new PostgresOutbox(sql, { listen }),
      processedEvents: new PostgresProcessedEvents(),
      jobStore: new PostgresJobStore(sql, { listen: false }),
      insertAppointment: async (id) => {
        await currentSql(sql)`insert into appointments (id) values (${id})`;
      },
      insertNotification: async (id) => {
        await currentSql(sql)`insert into notifications (appointment_id) values (${id})`;
      },
      exec: async (text) => await sql.unsafe(text),
      count: async (table: CountedTable) =>
        (await sql`select count(*)::int as n from ${sql(table)}`)[0]!.n as number,
      otherOutbox: () => {
        const other = postgres(url, {
          max: 2,
          onnotice: () => {},
          connection: { search_path: schema },
        });
        return Promise.resolve({
          outbox: new PostgresOutbox(other, { listen: false }),
          close: () => other.end({ timeout: 5 }),
        });
      },
    });
  }));
