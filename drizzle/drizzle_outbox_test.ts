import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import postgres from "postgres";
import { fileSchema } from "../test_support/file_schema.ts";
import { type CountedTable, sqlOutboxCases } from "../test_support/sql_outbox_cases.ts";
import {
  createJobTables,
  createKernelTables,
  currentDrizzle,
  type DrizzleDatabase,
  DrizzleJobStore,
  DrizzleOutbox,
  DrizzleProcessedEvents,
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
  // A schema per driver, its tables created by the driver once for the file, emptied before each
  // case.
  const withSchema = fileSchema(async ({ sql, url, schema }) => {
    const { db, close } = open(driver, url, schema);
    try {
      await createKernelTables(db, schema);
      await createJobTables(db, schema);
      await sql`create table appointments (id text primary key)`;
      await sql`create table notifications (appointment_id text not null)`;
    } finally {
      await close();
    }
  });
  sqlOutboxCases(
    `DrizzleOutbox (${driver})`,
    (fn) =>
      withSchema(async ({ sql, url, schema }) => {
        const { db, close } = open(driver, url, schema);
        try {
          await fn({
            transactions: new DrizzleTransactions(db),
            outbox: ({ listen }) => new DrizzleOutbox(db, { listen }),
            processedEvents: new DrizzleProcessedEvents(db),
            jobStore: new DrizzleJobStore(db, { schema, listen: false }),
            insertAppointment: async (id) => {
              await currentDrizzle(db).execute(dsql`insert into appointments (id) values (${id})`);
            },
            insertNotification: async (id) => {
              await currentDrizzle(db).execute(
                dsql`insert into notifications (appointment_id) values (${id})`,
              );
            },
            exec: async (text) => await sql.unsafe(text),
            count: async (table: CountedTable) =>
              (await sql`select count(*)::int as n from ${sql(table)}`)[0]!.n as number,
            otherOutbox: () => {
              const other = open(driver, url, schema);
              return Promise.resolve({
                outbox: new DrizzleOutbox(other.db, { schema, listen: false }),
                close: other.close,
              });
            },
          });
        } finally {
          await close();
        }
      }),
  );
}
