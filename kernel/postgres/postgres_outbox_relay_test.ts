import assert from "node:assert/strict";
import { until } from "../../test_support/until.ts";
import postgres from "postgres";
import type { TestDatabase } from "../../test_support/services.ts";
import { fileSchema, schemaTest } from "../../test_support/file_schema.ts";
import {
  composeApplication,
  defineModule,
  EventPublisher,
  eventsPlugin,
  Handles,
  HandlesEvent,
  type IntegrationEvent,
  lockFor,
  ProcessedEvents,
  processOnce,
  runInScope,
  userActor,
} from "../mod.ts";
import { currentUnitOfWork, type UnitOfWork } from "../internal.ts";
import type { ErrorReport } from "../logging.ts";
import type { EventRelaySettings, EventsApi, OutboxDelivery } from "../outbox.ts";
import { TestClock } from "../testing.ts";
import {
  currentSql,
  migrateKernel,
  PostgresOutbox,
  PostgresProcessedEvents,
  PostgresTransactions,
} from "../postgres.ts";
import { AppointmentBooked, BookAppointment, Sql } from "../testdata/booking_case.ts";

/** Counts the units of work opened, so that a test sees how many transactions a batch took. */
class CountingTransactions extends PostgresTransactions {
  runs = 0;
  override run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    this.runs++;
    return super.run(work);
  }
}

interface World {
  seen: string[];
  committed: string[];
  failing: Set<string>;
  gates: Map<string, PromiseWithResolvers<void>>;
  reported: { error: unknown; report: ErrorReport }[];
}

async function build(
  db: TestDatabase,
  options: { settings?: EventRelaySettings; listen?: boolean; sql?: postgres.Sql } = {},
) {
  const sql = options.sql ?? db.sql;
  await migrateKernel(db.sql);
  await db.sql`create table if not exists notifications (appointment_id text not null)`;
  const world: World = {
    seen: [],
    committed: [],
    failing: new Set(),
    gates: new Map(),
    reported: [],
  };

  @Handles(BookAppointment)
  class BookHandler {
    constructor(private readonly events: EventPublisher) {}
    async handle(command: BookAppointment): Promise<void> {
      await this.events.publish(AppointmentBooked, { appointmentId: command.appointmentId });
    }
  }

  @HandlesEvent(AppointmentBooked, { name: "notifications.appointments-appointment-booked" })
  class NotifyPatient {
    constructor(private readonly sql: postgres.Sql, private readonly processed: ProcessedEvents) {}
    async handle(event: IntegrationEvent<{ appointmentId: string }>): Promise<void> {
      const id = event.payload.appointmentId;
      world.seen.push(id);
      await world.gates.get(id)?.promise;
      await lockFor("notifications:mailbox");
      await processOnce(
        this.processed,
        "notifications.appointments-appointment-booked",
        event,
        async () => {
          await currentSql(this.sql)`insert into notifications values (${id})`;
        },
      );
      currentUnitOfWork()!.whenCommitted(() => void world.committed.push(id));
      if (world.failing.has(id)) throw new Error(`refused ${id}`);
    }
  }

  const clock = new TestClock("2026-03-01T09:00:00Z");
  const transactions = new CountingTransactions(sql);
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [BookHandler],
        dependencies: new Map([[BookHandler, [EventPublisher]]]),
      }),
      defineModule("notifications", {
        declarations: [NotifyPatient],
        dependencies: new Map([[NotifyPatient, [Sql, ProcessedEvents]]]),
      }),
    ],
    providers: [{ provide: Sql, provider: { useValue: sql } }],
    transactions,
    clock,
    errorReporter: { report: (error, report) => void world.reported.push({ error, report }) },
    plugins: {
      events: eventsPlugin({
        outbox: new PostgresOutbox(sql, { listen: options.listen ?? true }),
        processedEvents: new PostgresProcessedEvents(),
        start: true,
        ...options.settings,
      }),
    },
  });
  const events = app.events as EventsApi;
  /** Books one after another, a millisecond apart: deliveries are due in this order. */
  const book = async (...ids: string[]) => {
    for (const id of ids) {
      await app.commands.execute(new BookAppointment(id));
      clock.advance(1);
    }
  };
  const deliveries = async () =>
    (await db.sql`
      select o.payload->>'appointmentId' as id, d.attempts, d.delivered_at is not null as delivered,
        d.locked_until is not null as locked, d.dead_at, d.due_at, d.last_error
      from kit_outbox_deliveries d join kit_outbox o on o.id = d.event_id
      order by o.payload->>'appointmentId'`).map((r) => ({ ...r }));
  const notified = async () =>
    (await db.sql`select appointment_id from notifications order by 1`).map((r) =>
      r.appointment_id as string
    );
  return {
    app,
    events,
    relay: events.relay,
    clock,
    transactions,
    world,
    book,
    deliveries,
    notified,
  };
}

/**
 * The file's schema, with the tables `build` makes (its own statements then find them made): each
 * case on it emptied, with clients of its own.
 */
const withSchema = fileSchema(async ({ sql }) => {
  await migrateKernel(sql);
  await sql`create table notifications (appointment_id text not null)`;
}, { max: 8 });

/** A test on the file's schema (skipped without DATABASE_URL). */
const relayTest = schemaTest(withSchema);

relayTest(
  "Postgres relay: a batch is one transaction, each delivery in a savepoint: one failing rolls back alone",
  async (db) => {
    const { relay, world, book, transactions, deliveries, notified, clock, app } = await build(
      db,
    );
    await book("a1", "a2", "a3", "a4", "a5");
    world.failing.add("a3");
    const before = transactions.runs;
    assert.equal(await relay.deliverDue(), 4);
    assert.equal(transactions.runs - before, 1, "one transaction for the batch of five");
    assert.deepEqual(await notified(), ["a1", "a2", "a4", "a5"], "a3's insert is undone");
    assert.equal(
      (await db.sql`select count(*)::int as n from kit_processed_events`)[0]!.n,
      4,
      "so is a3's processed-event mark",
    );
    assert.deepEqual(world.committed, ["a1", "a2", "a4", "a5"], "a3's commit callback dropped");
    const rows = await deliveries();
    assert.deepEqual(
      rows.map((r) => [r.id, r.attempts, r.delivered, r.locked, r.last_error]),
      [
        ["a1", 1, true, false, null],
        ["a2", 1, true, false, null],
        ["a3", 1, false, false, "refused a3"],
        ["a4", 1, true, false, null],
        ["a5", 1, true, false, null],
      ],
    );
    assert.equal((rows[2]!.due_at as Date).toISOString(), "2026-03-01T09:00:01.005Z");
    assert.equal(world.reported.length, 1);
    world.failing.clear();
    assert.equal(await relay.deliverDue(), 0, "not before its retry");
    clock.advance(1_000);
    assert.equal(await relay.deliverDue(), 1);
    assert.deepEqual(await notified(), ["a1", "a2", "a3", "a4", "a5"]);
    await app.stop();
  },
);

relayTest(
  "Postgres relay: woken by the commit's notification, it delivers long before its next poll",
  async (db) => {
    const { app, relay, clock, world, book, notified } = await build(db, {
      settings: { pollIntervalMs: 3_600_000 },
    });
    await app.start();
    await until(() => relay.listening && clock.pendingSleepers === 1, "the relay listens, idle", {
      ms: 10_000,
    });
    await book("a1");
    await until(() => world.committed.includes("a1"), "a1 is delivered", { ms: 10_000 });
    assert.deepEqual(await notified(), ["a1"]);
    assert.equal(clock.now().toISOString(), "2026-03-01T09:00:00.001Z", "no poll: 1 ms passed");
    await book("a2", "a3");
    await until(() => world.committed.length === 3, "a2 and a3 are delivered", { ms: 10_000 });
    await app.stop();
    assert.equal(relay.listening, false);
    assert.equal(clock.pendingSleepers, 0);
  },
);

relayTest(
  "Postgres relay: listening resumes by itself after its connection is terminated",
  async (db) => {
    const application = `kit_relay_test_${crypto.randomUUID().slice(0, 8)}`;
    const sql = postgres(db.url, {
      max: 4,
      onnotice: () => {},
      connection: { search_path: db.schema, application_name: application },
    });
    try {
      const { app, relay, clock, world, book } = await build(db, {
        sql,
        settings: { pollIntervalMs: 3_600_000 },
      });
      await app.start();
      await until(() => relay.listening && clock.pendingSleepers === 1, "the relay listens", {
        ms: 10_000,
      });
      const killed = await db.sql`
        select pg_terminate_backend(pid) as done from pg_stat_activity
        where application_name = ${application} and query like 'listen %'`;
      assert.equal(killed.length, 1, "one listening connection");
      // The driver listens again on a new connection; each commit still wakes the relay.
      for (const id of ["a1", "a2", "a3"]) {
        await book(id);
        await until(() => world.committed.includes(id), `${id} is delivered`, { ms: 10_000 });
      }
      assert.equal(clock.now().toISOString(), "2026-03-01T09:00:00.003Z", "no poll: 3 ms passed");
      await app.stop();
    } finally {
      await sql.end({ timeout: 5 });
    }
  },
);

relayTest(
  "Postgres relay: a delivery failing maxAttempts times is dead, kept with its error, and revived by retryDead",
  async (db) => {
    const { app, relay, events, world, clock, deliveries, notified } = await build(db, {
      settings: { maxAttempts: 2, retryDelay: () => 1_000 },
    });
    const ann = userActor("ann", { tenants: ["practice-a"] });
    const bob = userActor("bob", { tenants: ["practice-b"] });
    await app.commands.execute(new BookAppointment("a1", { actor: ann }));
    await app.commands.execute(new BookAppointment("b1", { actor: bob }));
    world.failing.add("a1").add("b1");
    assert.equal(await relay.deliverDue(), 0);
    clock.advance(1_000);
    assert.equal(await relay.deliverDue(), 0);
    assert.deepEqual(
      world.reported.map((r) => r.report.details?.outcome),
      ["retried", "retried", "dead", "dead"],
    );
    const rows = await deliveries();
    assert.deepEqual(rows.map((r) => [r.id, r.attempts, r.delivered, r.last_error]), [
      ["a1", 2, false, "refused a1"],
      ["b1", 2, false, "refused b1"],
    ]);
    assert.equal((rows[0]!.dead_at as Date).toISOString(), "2026-03-01T09:00:01.000Z");
    clock.advance(86_400_000);
    assert.equal(await relay.deliverDue(), 0, "dead deliveries are not claimed");
    assert.equal(world.seen.length, 4);

    const dead = await events.deadDeliveries();
    assert.deepEqual(dead.map((d) => [d.tenantId, d.attempts, d.lastError]).sort(), [
      ["practice-a", 2, "refused a1"],
      ["practice-b", 2, "refused b1"],
    ]);
    world.failing.clear();
    const asBob = <T>(fn: () => Promise<T>) =>
      runInScope({
        execution: { origin: "test", actor: bob, tenantId: "practice-b", correlationId: "c" },
      }, fn);
    assert.deepEqual((await asBob(() => events.deadDeliveries())).map((d) => d.tenantId), [
      "practice-b",
    ]);
    assert.equal(
      await asBob(() =>
        events.retryDead({ handler: "notifications.appointments-appointment-booked" })
      ),
      1,
      "bob revives practice-b's only",
    );
    assert.deepEqual((await deliveries()).map((r) => [r.id, r.attempts, r.dead_at === null]), [
      ["a1", 2, false],
      ["b1", 0, true],
    ]);
    assert.equal(await relay.deliverDue(), 1);
    assert.equal(
      await events.retryDead({ eventId: dead.find((d) => d.tenantId === "practice-a")!.eventId }),
      1,
    );
    assert.equal(await relay.deliverDue(), 1);
    assert.deepEqual(await notified(), ["a1", "b1"]);
    assert.deepEqual(await events.deadDeliveries(), []);
    await app.stop();
  },
);

relayTest(
  "Postgres relay: stop lets the delivery under way commit and gives back the rest of its batch",
  async (db) => {
    const { app, relay, world, book, deliveries, notified } = await build(db, {
      settings: { batchSize: 5 },
    });
    await book("a1", "a2", "a3", "a4", "a5");
    world.gates.set("a1", Promise.withResolvers());
    await app.start();
    await until(() => world.seen.length === 1, "a1 is under way", { ms: 10_000 });
    const stopped = app.stop();
    world.gates.get("a1")!.resolve();
    await stopped;
    assert.deepEqual(world.seen, ["a1"], "nothing started after stop");
    assert.deepEqual((await deliveries()).map((r) => [r.id, r.attempts, r.delivered, r.locked]), [
      ["a1", 1, true, false],
      ["a2", 0, false, false],
      ["a3", 0, false, false],
      ["a4", 0, false, false],
      ["a5", 0, false, false],
    ]);
    assert.deepEqual(await notified(), ["a1"]);
    assert.equal(await relay.deliverDue(), 4, "given back: due at once, not after the lease");
  },
);

relayTest(
  "Postgres relay: a database error while claiming is reported, backed off on the clock, and the relay resumes by itself",
  async (db) => {
    const { app, clock, world, book, notified } = await build(db, {
      listen: false,
      settings: { pollIntervalMs: 1_000, claimRetryDelay: () => 5_000 },
    });
    await app.start();
    await until(() => clock.pendingSleepers === 1, "the relay polls", { ms: 10_000 });
    await book("a1");
    await db.sql`alter table kit_outbox_deliveries rename to kit_outbox_deliveries_away`;
    clock.advance(1_000);
    await until(
      () => world.reported.length === 1 && clock.pendingSleepers === 1,
      "a failed claim",
      { ms: 10_000 },
    );
    const [{ error, report }] = world.reported as [{ error: unknown; report: ErrorReport }];
    assert.deepEqual(report, { origin: "event", details: { stage: "claim", failures: 1 } });
    assert.match(String(error), /relation "kit_outbox_deliveries" does not exist/);
    clock.advance(4_999);
    assert.equal(clock.pendingSleepers, 1, "the back-off (5 s) still runs");
    await db.sql`alter table kit_outbox_deliveries_away rename to kit_outbox_deliveries`;
    assert.equal(world.reported.length, 1, "no claim before the back-off ends");
    assert.deepEqual(world.seen, []);
    clock.advance(1);
    await until(() => world.committed.includes("a1"), "a1 is delivered after the outage", {
      ms: 10_000,
    });
    assert.deepEqual(await notified(), ["a1"]);
    assert.equal(world.reported.length, 1);
    await app.stop();
    assert.equal(clock.pendingSleepers, 0);
  },
);

relayTest(
  "PostgresOutbox claims only the handlers named, at most their share, those of one instant in append order, and a fresh client's first append works",
  async (db) => {
    await migrateKernel(db.sql);
    const fresh = postgres(db.url, {
      max: 1,
      onnotice: () => {},
      connection: { search_path: db.schema },
    });
    try {
      const outbox = new PostgresOutbox(fresh);
      outbox.subscribe(new Map([["scheduling.appointment.booked", ["a.one", "b.two"]]]));
      const transactions = new PostgresTransactions(fresh);
      for (const n of [1, 2, 3]) {
        const event = await AppointmentBooked.create({ appointmentId: `a${n}` }, {
          occurredAt: new Date(Date.UTC(2026, 2, 1, 9, 0, n)),
        });
        await transactions.run((unit) => outbox.append(event, unit));
      }
      const now = new Date("2026-03-01T10:00:00Z");
      const claimed = await outbox.claim({
        now,
        limit: 10,
        leaseMs: 60_000,
        handlers: { "b.two": 2 },
      });
      const idOf = (d: OutboxDelivery) =>
        (d.event.payload as { appointmentId: string }).appointmentId;
      assert.deepEqual(
        claimed.map((d) => [d.handler, idOf(d), d.attempt]),
        [["b.two", "a1", 1], ["b.two", "a2", 1]],
      );
      const rest = await outbox.claim({ now, limit: 3, leaseMs: 60_000 });
      assert.deepEqual(rest.map((d) => d.handler), ["a.one", "a.one", "a.one"], "earliest first");
      await outbox.release([...claimed, ...rest]);
      const [kept] = await db.sql`
        select sum(attempts)::int as n, count(locked_until)::int as locked
        from kit_outbox_deliveries`;
      assert.deepEqual({ ...kept }, { n: 0, locked: 0 }, "released: attempts uncounted");
      // Events of one instant, appended in one transaction, are claimed in that order.
      const instant = new Date(Date.UTC(2026, 2, 1, 9, 30));
      const same = await Promise.all(
        ["s1", "s2", "s3", "s4", "s5", "s6"].map((id) =>
          AppointmentBooked.create({ appointmentId: id }, { occurredAt: instant })
        ),
      );
      await transactions.run(async (unit) => {
        for (const event of same) await outbox.append(event, unit);
      });
      const inOrder = await outbox.claim({ now, limit: 6, leaseMs: 1, handlers: { "a.one": 6 } });
      assert.deepEqual(
        inOrder.map(idOf),
        ["a1", "a2", "a3", "s1", "s2", "s3"],
      );
    } finally {
      await fresh.end({ timeout: 5 });
    }
  },
);

Deno.test("PostgresOutbox listens by default, but not with listen: false nor on a client of one connection", async () => {
  const url = "postgres://nobody@127.0.0.1:1/none";
  const clients = [postgres(url), postgres(url, { max: 1 })];
  try {
    assert.equal(typeof new PostgresOutbox(clients[0]!).listen, "function");
    assert.equal(new PostgresOutbox(clients[0]!, { listen: false }).listen, undefined);
    assert.equal(new PostgresOutbox(clients[1]!).listen, undefined, "max: 1 asks for no second");
    assert.equal(typeof new PostgresOutbox(clients[1]!, { listen: true }).listen, "function");
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
});
