/**
 * What the kernel's outbox runs on each PostgreSQL driver (postgres.js, Drizzle, Knex), through
 * the driver's unit of work: a command's repository write, its integration event and its job
 * commit together (a rollback leaves none of them), the relay delivers the committed event and
 * runs each handler once (a redelivery is skipped by `processOnce`), a handler that fails in a
 * batch has its write undone and its delivery retried while the others commit, concurrent relays
 * never take the same delivery, a listening relay wakes on a commit, dead deliveries are listed
 * and revived, and the backlog counts (the kernel's backlog case).
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";
import {
  type BackgroundJobExecution,
  Command,
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  EventPublisher,
  eventsPlugin,
  Handles,
  HandlesEvent,
  type IntegrationEvent,
  JobQueue,
  lockFor,
  ProcessedEvents,
  processOnce,
  systemActor,
  type TransactionManager,
} from "@kit/kernel";
import type { EventRelaySettings, EventsApi, Outbox } from "@kit/kernel/outbox";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, jobsPlugin, type JobStore } from "@kit/jobs";
import { outboxBacklogCase } from "../kernel/testdata/outbox_backlog_case.ts";
import { ignoreWithout } from "./services.ts";

/** The tables a case counts. */
export type CountedTable =
  | "appointments"
  | "notifications"
  | "background_jobs"
  | "kit_outbox"
  | "kit_outbox_deliveries";

/**
 * A driver opened on a fresh schema holding the kernel's and the job tables, `appointments (id
 * text primary key)` and `notifications (appointment_id text not null)`.
 */
export interface OpenedOutboxOrm {
  /** The driver's unit of work. */
  readonly transactions: TransactionManager;
  /** A new outbox of the driver on the schema; `listen` as given. */
  outbox(options: { listen: boolean }): Outbox;
  /** The driver's processed events. */
  readonly processedEvents: ProcessedEvents;
  /** The driver's job store (not listening). */
  readonly jobStore: JobStore;
  /** Inserts an appointment through the ORM, in the unit of work under way. */
  insertAppointment(id: string): Promise<void>;
  /** Inserts a notification through the ORM, in the unit of work under way. */
  insertNotification(appointmentId: string): Promise<void>;
  /** Runs a statement of the test on the schema, outside any unit (postgres.js); its rows. */
  exec(text: string): Promise<readonly Record<string, unknown>[]>;
  /** How many rows a table holds, read outside any unit. */
  count(table: CountedTable): Promise<number>;
  /**
   * Opens another client of the driver on the same schema (another process's), answers an outbox
   * on it and the function that closes it.
   */
  otherOutbox(): Promise<{ outbox: Outbox; close(): Promise<void> }>;
}

const AppointmentBooked = defineIntegrationEvent({
  type: "scheduling.appointment.booked",
  version: 1,
  payload: z.object({ appointmentId: z.string() }),
});

const handlerName = "notifications.appointments-appointment-booked";

class BookAppointment extends Command<void> {
  constructor(readonly appointmentId: string, readonly fail = false) {
    super(systemActor);
  }
}

/**
 * Declares the outbox cases for a driver.
 *
 * @param name The driver's name, for the test titles.
 * @param withOrm Runs a case on a fresh schema, then drops it.
 */
export function sqlOutboxCases(
  name: string,
  withOrm: (fn: (orm: OpenedOutboxOrm) => Promise<void>) => Promise<void>,
): void {
  const test = (title: string, fn: (orm: OpenedOutboxOrm) => Promise<void>) =>
    Deno.test({
      name: `${name}: ${title}`,
      ignore: ignoreWithout("DATABASE_URL"),
      sanitizeResources: false,
      sanitizeOps: false,
      fn: () => withOrm(fn),
    });

  test("a committed command keeps its write, its event and its job; a rolled-back one none of them", async (orm) => {
    const { app, events, jobs } = build(orm);
    await assert.rejects(
      () => app.commands.execute(new BookAppointment("a1", true)),
      /booking refused/,
    );
    for (
      const table of [
        "appointments",
        "kit_outbox",
        "kit_outbox_deliveries",
        "background_jobs",
      ] as const
    ) {
      assert.equal(await orm.count(table), 0, `${table} after the rollback`);
    }
    assert.equal(await events.relay.deliverDue(), 0);
    await app.commands.execute(new BookAppointment("a2"));
    assert.equal(await orm.count("appointments"), 1);
    assert.equal(await orm.count("kit_outbox"), 1);
    assert.equal(await orm.count("kit_outbox_deliveries"), 1);
    assert.equal(await orm.count("background_jobs"), 1);
    assert.equal(await jobs.runDue(), 1);
  });

  test("the relay delivers a committed event once, its handler's write committed with the delivery; a redelivery is handled once", async (orm) => {
    const { app, events, world } = build(orm);
    await app.commands.execute(new BookAppointment("a3"));
    assert.equal(await events.relay.deliverDue(), 1);
    assert.deepEqual(world.seen, ["a3"]);
    assert.equal(await orm.count("notifications"), 1);
    assert.equal(await events.relay.deliverDue(), 0);
    // A delivery whose completion was lost (a relay crashed after the handler committed).
    await orm.exec("update kit_outbox_deliveries set delivered_at = null");
    assert.equal(await events.relay.deliverDue(), 1);
    assert.deepEqual(world.seen, ["a3", "a3"]);
    assert.equal(await orm.count("notifications"), 1);
  });

  test("a handler that fails in a batch: its write undone, its delivery retried later; the others delivered", async (orm) => {
    const { app, events, world, clock } = build(orm, {
      settings: { retryDelay: () => 60_000 },
    });
    for (const id of ["b1", "b2", "b3"]) await app.commands.execute(new BookAppointment(id));
    world.failing.add("b2");
    assert.equal(await events.relay.deliverDue(), 2);
    assert.equal(await orm.count("notifications"), 2);
    const [backlog] = await orm.outbox({ listen: false }).backlog();
    assert.equal(backlog?.pending, 1);
    assert.equal(backlog?.retrying, 1);
    assert.equal(await events.relay.deliverDue(), 0, "not due before the retry delay");
    world.failing.clear();
    clock.advance(60_000);
    assert.equal(await events.relay.deliverDue(), 1);
    assert.equal(await orm.count("notifications"), 3);
    assert.deepEqual(await orm.outbox({ listen: false }).backlog(), []);
  });

  test("a named lock taken by a handler that failed goes with its savepoint, and the next handler of the batch takes it again", async (orm) => {
    const { app, events, world } = build(orm, { settings: { retryDelay: () => 60_000 } });
    for (const id of ["k1", "k2"]) await app.commands.execute(new BookAppointment(id));
    world.failing.add("k1");
    world.locking = true;
    const k2 = { reached: Promise.withResolvers<void>(), gate: Promise.withResolvers<void>() };
    world.gates = new Map([["k2", k2]]);
    const delivering = events.relay.deliverDue();
    try {
      await within(k2.reached.promise, 5_000, "the second handler never ran");
      assert.deepEqual(world.seen, ["k1", "k2"]);
      const [row] = await orm.exec(
        "select pg_try_advisory_xact_lock(hashtextextended('notifications:mailbox', 0)) as free",
      );
      assert.equal(row?.free, false, "the second handler holds the lock");
    } finally {
      k2.gate.resolve();
    }
    assert.equal(await delivering, 1);
  });

  test("a delivery that fails its last attempt is dead until revived", async (orm) => {
    const { app, events, world } = build(orm, { settings: { maxAttempts: 1 } });
    await app.commands.execute(new BookAppointment("d1"));
    world.failing.add("d1");
    await events.relay.deliverDue();
    const dead = await events.deadDeliveries({});
    assert.deepEqual(dead.map((d) => [d.handler, d.attempts, d.lastError]), [
      [handlerName, 1, "refused d1"],
    ]);
    assert.equal(await events.relay.deliverDue(), 0);
    world.failing.clear();
    assert.equal(await events.retryDead({ eventId: dead[0]!.eventId }), 1);
    assert.equal(await events.relay.deliverDue(), 1);
    assert.equal(await orm.count("notifications"), 1);
    assert.deepEqual(await events.deadDeliveries({}), []);
  });

  test("two relays claiming at once never take the same delivery", async (orm) => {
    const { app } = build(orm);
    for (let i = 0; i < 40; i++) await app.commands.execute(new BookAppointment(`c${i}`));
    const other = await orm.otherOutbox();
    try {
      const outboxes = [orm.outbox({ listen: false }), other.outbox];
      const now = new Date("2026-03-01T09:00:00Z");
      const claims = await Promise.all(
        outboxes.flatMap((outbox) => [
          outbox.claim({ now, limit: 15, leaseMs: 60_000 }),
          outbox.claim({ now, limit: 15, leaseMs: 60_000 }),
        ]),
      );
      const ids = claims.flat().map((d) => d.event.id);
      assert.equal(ids.length, 40);
      assert.equal(new Set(ids).size, 40);
      // Claimed in the order appended, each with its first attempt.
      assert.ok(claims.flat().every((d) => d.attempt === 1 && d.handler === handlerName));
    } finally {
      await other.close();
    }
  });

  test("two applications relaying at once run each handler once per event", async (orm) => {
    const first = build(orm);
    for (let i = 0; i < 30; i++) await first.app.commands.execute(new BookAppointment(`r${i}`));
    const other = await orm.otherOutbox();
    try {
      const second = build(orm, { outbox: other.outbox, world: first.world });
      const delivered = await Promise.all([
        first.events.relay.deliverDue(),
        second.events.relay.deliverDue(),
        first.events.relay.deliverDue(),
        second.events.relay.deliverDue(),
      ]);
      assert.equal(delivered.reduce((a, b) => a + b, 0), 30);
      assert.equal(first.world.seen.length, 30);
      assert.equal(new Set(first.world.seen).size, 30);
      assert.equal(await orm.count("notifications"), 30);
    } finally {
      await other.close();
    }
  });

  test("a listening relay delivers a committed event at once, not at the next poll", async (orm) => {
    const { app, world } = build(orm, { start: true, listen: true });
    let delivered!: () => void;
    world.onSeen = new Promise<void>((resolve) => (delivered = resolve));
    world.delivered = () => delivered();
    await app.start();
    try {
      await app.commands.execute(new BookAppointment("l1"));
      // The poll interval is an hour on a clock that never moves: only the notification wakes it.
      await within(world.onSeen, 5_000, "the relay never woke for the committed event");
      assert.deepEqual(world.seen, ["l1"]);
    } finally {
      await app.stop();
    }
  });

  test("the backlog counts each handler's pending, retrying and dead deliveries, of the tenants asked", async (orm) => {
    await outboxBacklogCase(orm.outbox({ listen: false }), orm.transactions);
  });
}

interface World {
  seen: string[];
  failing: Set<string>;
  /** Each handler takes the named lock `notifications:mailbox` first. */
  locking?: boolean;
  /** A handler of these ids says it is there and waits for the gate. */
  gates?: Map<string, { reached: PromiseWithResolvers<void>; gate: PromiseWithResolvers<void> }>;
  onSeen?: Promise<void>;
  delivered?: () => void;
}

function build(
  orm: OpenedOutboxOrm,
  options: {
    start?: boolean;
    listen?: boolean;
    settings?: EventRelaySettings;
    outbox?: Outbox;
    world?: World;
  } = {},
) {
  const world: World = options.world ?? { seen: [], failing: new Set() };

  @Background()
  class SendConfirmation {
    static readonly jobName = "scheduling.send-confirmation";
    run(_payload: { appointmentId: string }, _execution: BackgroundJobExecution): Promise<void> {
      return Promise.resolve();
    }
  }

  @Handles(BookAppointment)
  class BookAppointmentHandler {
    constructor(private readonly events: EventPublisher, private readonly jobs: JobQueue) {}
    async handle(command: BookAppointment): Promise<void> {
      await orm.insertAppointment(command.appointmentId);
      await this.events.publish(AppointmentBooked, { appointmentId: command.appointmentId });
      await this.jobs.enqueue(SendConfirmation, { appointmentId: command.appointmentId });
      if (command.fail) throw new Error("booking refused");
    }
  }

  @HandlesEvent(AppointmentBooked, { name: handlerName })
  class NotifyPatient {
    constructor(private readonly processed: ProcessedEvents) {}
    async handle(event: IntegrationEvent<{ appointmentId: string }>): Promise<void> {
      const id = event.payload.appointmentId;
      world.seen.push(id);
      world.delivered?.();
      if (world.locking) await lockFor("notifications:mailbox");
      const gate = world.gates?.get(id);
      if (gate !== undefined) {
        gate.reached.resolve();
        await gate.gate.promise;
      }
      await processOnce(this.processed, handlerName, event, async () => {
        await orm.insertNotification(id);
      });
      if (world.failing.has(id)) throw new Error(`refused ${id}`);
    }
  }

  const clock = new TestClock("2026-03-01T09:00:00Z");
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [BookAppointmentHandler, SendConfirmation],
        dependencies: new Map([[BookAppointmentHandler, [EventPublisher, JobQueue]]]),
      }),
      defineModule("notifications", {
        declarations: [NotifyPatient],
        dependencies: new Map([[NotifyPatient, [ProcessedEvents]]]),
      }),
    ],
    transactions: orm.transactions,
    clock,
    // The failing handler's errors are the cases' own: kept from the test output.
    errorReporter: { report: () => {} },
    plugins: {
      events: eventsPlugin({
        outbox: options.outbox ?? orm.outbox({ listen: options.listen ?? false }),
        processedEvents: orm.processedEvents,
        start: options.start ?? false,
        pollIntervalMs: 3_600_000,
        ...options.settings,
      }),
      backgroundJobs: jobsPlugin({ store: orm.jobStore, start: false }),
    },
  });
  return {
    app,
    events: app.events as EventsApi,
    jobs: app.backgroundJobs as BackgroundJobsApi,
    world,
    clock,
  };
}

async function within(promise: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
