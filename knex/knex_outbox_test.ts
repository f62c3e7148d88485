import knex, { type Knex } from "knex";
import { fileSchema } from "../test_support/file_schema.ts";
import { type CountedTable, sqlOutboxCases } from "../test_support/sql_outbox_cases.ts";
import {
  createJobTable,
  createKernelTables,
  currentKnex,
  KnexJobStore,
  KnexOutbox,
  KnexProcessedEvents,
  KnexTransactions,
} from "./mod.ts";

function open(url: string, schema: string): Knex {
  return knex({ client: "pg", connection: url, searchPath: [schema], pool: { min: 0, max: 4 } });
}

// The tables are created once for the file, emptied before each case.
const withSchema = fileSchema(async ({ url, schema }) => {
  const db = open(url, schema);
  try {
    await createKernelTables(db, schema);
    await createJobTable(db, schema);
    await db.schema.createTable("appointments", (table) => table.text("id").primary());
    await db.schema.createTable("notifications", (table) => table.text("appointment_id"));
  } finally {
    await db.destroy();
  }
});

sqlOutboxCases("KnexOutbox", (fn) =>
  withSchema(async ({ sql, url, schema }) => {
    const db = open(url, schema);
    try {
      await fn({
        transactions: new KnexTransactions(db),
        outbox: ({ listen }) => new KnexOutbox(db, { listen }),
        processedEvents: new KnexProcessedEvents(db),
        jobStore: new KnexJobStore(db, { schema, listen: false }),
        insertAppointment: async (id) => {
          await currentKnex(db)("appointments").insert({ id });
        },
        insertNotification: async (id) => {
          await currentKnex(db)("notifications").insert({ appointment_id: id });
        },
        exec: async (text) => await sql.unsafe(text),
        count: async (table: CountedTable) => {
          const [row] = await db(table).count<{ n: string }[]>({ n: "*" });
          return Number(row!.n);
        },
        otherOutbox: () => {
          const other = open(url, schema);
          return Promise.resolve({
            outbox: new KnexOutbox(other, { schema, listen: false }),
            close: () => other.destroy(),
          });
        },
      });
    } finally {
      await db.destroy();
    }
  }));
