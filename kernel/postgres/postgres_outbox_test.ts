import assert from "node:assert/strict";
import type postgres from "postgres";
import { pgTest } from "../../test_support/services.ts";
import { fileSchema, schemaTest } from "../../test_support/file_schema.ts";
import {
  composeApplication,
  defineModule,
  EventPublisher,
  eventsPlugin,
  Handles,
  HandlesEvent,
  type IntegrationEvent,
  ProcessedEvents,
  processOnce,
} from "../mod.ts";
import type { EventsApi } from "../outbox.ts";
import { TestClock } from "../testing.ts";
import { kernelMigrations } from "./kernel_migrations.ts";
import { outboxBacklogCase } from "../testdata/outbox_backlog_case.ts";
import {
  currentSql,
  migrateKernel,
  PostgresOutbox,
  PostgresProcessedEvents,
  PostgresTransactions,
} from "../postgres.ts";
import { AppointmentBooked, BookAppointment, Sql } from "../testdata/booking_case.ts";

/** The file's schema, migrated with the tables `build` writes: each case on it emptied. */
const withSchema = fileSchema(async ({ sql }) => {
  await migrateKernel(sql);
  await sql`create table appointments (id text primary key)`;
  await sql`create table notifications (appointment_id text not null)`;
});

/** A test on the file's schema (skipped without DATABASE_URL). */
const outboxTest = schemaTest(withSchema);

/** The application on the file's schema (`withSchema`). */
function build(sql: postgres.Sql) {
  const seen: string[] = [];

  @Handles(BookAppointment)
  class BookAppointmentHandler {
    constructor(private readonly sql: postgres.Sql, private readonly events: EventPublisher) {}
    async handle(command: BookAppointment): Promise<void> {
      await currentSql(this.sql)`insert into appointments (id) values (${command.appointmentId})`;
      await this.events.publish(AppointmentBooked, { appointmentId: command.appointmentId });
      if (command.fail) throw new Error("booking refused");
    }
  }

  @HandlesEvent(AppointmentBooked, { name: "notifications.appointments-appointment-booked" })
  class NotifyPatient {
    constructor(private readonly sql: postgres.Sql, private readonly processed: ProcessedEvents) {}
    async handle(event: IntegrationEvent<{ appointmentId: string }>): Promise<void> {
      seen.push(event.payload.appointmentId);
      await processOnce(
        this.processed,
        "notifications.appointments-appointment-booked",
        event,
        async () => {
          await currentSql(
            this.sql,
          )`insert into notifications values (${event.payload.appointmentId})`;
        },
      );
    }
  }

  const clock = new TestClock("2026-03-01T09:00:00Z");
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [BookAppointmentHandler],
        dependencies: new Map([[BookAppointmentHandler, [Sql, EventPublisher]]]),
      }),
      defineModule("notifications", {
        declarations: [NotifyPatient],
        dependencies: new Map([[NotifyPatient, [Sql, ProcessedEvents]]]),
      }),
    ],
    providers: [{ provide: Sql, provider: { useValue: sql } }],
    transactions: new PostgresTransactions(sql),
    clock,
    plugins: {
      events: eventsPlugin({
        outbox: new PostgresOutbox(sql),
        processedEvents: new PostgresProcessedEvents(),
        start: false,
      }),
    },
  });
  return { app, events: app.events as EventsApi, seen };
}

outboxTest("Postgres outbox: an event is delivered once its command commits", async ({ sql }) => {
  const { app, events, seen } = build(sql);
  await app.commands.execute(new BookAppointment("a1"));
  assert.equal(await events.relay.deliverDue(), 1);
  assert.deepEqual(seen, ["a1"]);
  assert.deepEqual(
    (await sql`select appointment_id from notifications`).map((r) => r.appointment_id),
    ["a1"],
  );
  assert.equal(await events.relay.deliverDue(), 0);
});

outboxTest(
  "Postgres outbox: an event written in a rolled-back command is never delivered",
  async ({ sql }) => {
    const { app, events, seen } = build(sql);
    await assert.rejects(
      () => app.commands.execute(new BookAppointment("a2", { fail: true })),
      /booking refused/,
    );
    assert.equal((await sql`select count(*)::int as n from kit_outbox`)[0]!.n, 0);
    assert.equal((await sql`select count(*)::int as n from appointments`)[0]!.n, 0);
    assert.equal(await events.relay.deliverDue(), 0);
    assert.deepEqual(seen, []);
  },
);

outboxTest("Postgres outbox: a redelivered event is handled once", async ({ sql }) => {
  const { app, events, seen } = build(sql);
  await app.commands.execute(new BookAppointment("a3"));
  await events.relay.deliverDue();
  await sql`update kit_outbox_deliveries set delivered_at = null`;
  assert.equal(await events.relay.deliverDue(), 1);
  assert.deepEqual(seen, ["a3", "a3"]);
  assert.equal((await sql`select count(*)::int as n from notifications`)[0]!.n, 1);
});

outboxTest(
  "Postgres outbox: two relays claiming at once never take the same delivery",
  async ({ sql, url, schema }) => {
    const { app } = build(sql);
    for (let i = 0; i < 40; i++) await app.commands.execute(new BookAppointment(`b${i}`));
    const postgresJs = (await import("postgres")).default;
    const clients = [0, 1].map(() =>
      postgresJs(url, { max: 1, onnotice: () => {}, connection: { search_path: schema } })
    );
    try {
      const outboxes = clients.map((client) => {
        const outbox = new PostgresOutbox(client);
        return outbox;
      });
      const now = new Date("2026-03-01T09:00:00Z");
      const claims = await Promise.all(
        outboxes.flatMap((
          o,
        ) => [
          o.claim({ now, limit: 15, leaseMs: 60_000 }),
          o.claim({ now, limit: 15, leaseMs: 60_000 }),
        ]),
      );
      const ids = claims.flat().map((d) => d.event.id);
      assert.equal(ids.length, 40);
      assert.equal(new Set(ids).size, 40);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  },
);

pgTest("migrateKernel is idempotent and refuses a bad schema name", async ({ sql }) => {
  await migrateKernel(sql);
  await migrateKernel(sql);
  assert.equal(
    (await sql`select count(*)::int as n from kit_kernel_migrations`)[0]!.n,
    kernelMigrations.length,
  );
  await assert.rejects(
    () => migrateKernel(sql, { schema: "Bad-Name" }),
    /Invalid schema or table name "Bad-Name"/,
  );
});

outboxTest(
  "PostgresOutbox: the backlog counts each handler's pending, retrying and dead deliveries, of the tenants asked",
  async ({ sql }) => {
    await outboxBacklogCase(
      new PostgresOutbox(sql, { listen: false }),
      new PostgresTransactions(sql),
    );
  },
);
