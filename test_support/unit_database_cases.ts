/**
 * What every PostgreSQL job store (postgres.js, Drizzle, Knex) does with a unit of work opened on a
 * client other than its own: on another database, the command that enqueues is refused, naming
 * the store and both databases, and neither database keeps the job nor the command's other
 * write; on a second client of the unit's own database, the job is enqueued and claimed; on the
 * unit's own client, as ever. The ORM's outbox (`PostgresOutbox`, `DrizzleOutbox`, `KnexOutbox`)
 * likewise: an append and a completion on another database refused, naming both, with nothing
 * written; on a second client of the unit's database and on its own client, written in the unit.
 * Each declaration makes two databases of its own (random names), migrated with the ORM's helper,
 * and drops them after the file's last test ({@linkcode twoDatabaseTests}, which the tests of
 * `OutboxJobStore` use too).
 *
 * @module
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import {
  type BackgroundJobExecution,
  Command,
  composeApplication,
  defineModule,
  Handles,
  type IntegrationEvent,
  JobQueue,
  systemActor,
  type TransactionManager,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import type { Outbox, OutboxDelivery } from "@kit/kernel/outbox";
import { Background, type BackgroundJobsApi, jobsPlugin, type JobStore } from "@kit/jobs";
import { ignoreWithout, requireUrl } from "./services.ts";

/** The schema of the job tables in both databases. */
export const jobSchema = "jobs";

/** A client of the ORM on one database, opened for one case. */
export interface OrmClient {
  /** The ORM's units of work, opened on this client. */
  readonly transactions: TransactionManager;
  /** The ORM's job store on this client (tables in {@linkcode jobSchema}), not listening. */
  store(): JobStore;
  /** Inserts into `appointments (id)` through this client, in the unit of work under way. */
  insertAppointment(id: string): Promise<void>;
  /** The ORM's outbox on this client (tables in {@linkcode jobSchema}), where it has one. */
  outbox?(): Outbox;
  /** Releases the client. */
  close(): Promise<void>;
}

/** How the cases reach an ORM. */
export interface UnitDatabaseOrm {
  /** The store's name, which the refusal names (`KnexJobStore`). */
  readonly storeName: string;
  /** The outbox's name, which its refusal names (`KnexOutbox`), where the ORM has one. */
  readonly outboxName?: string;
  /**
   * Creates the job tables in {@linkcode jobSchema} of the database at `url` (and the kernel's,
   * where the ORM has an outbox), with the ORM's helpers.
   */
  migrate(url: string): Promise<void>;
  /** Opens a new client of the ORM on the database at `url`. */
  open(url: string): Promise<OrmClient>;
}

/** One of the two private databases of a file's cases. */
export interface PrivateDatabase {
  /** Its name (`test_unitdb_<random>_a`), which the refusals name. */
  readonly name: string;
  /** Its URL. */
  readonly url: string;
  /** A client of it of one connection, for the cases' counts. */
  readonly admin: postgres.Sql;
}

/** How {@linkcode twoDatabaseTests} prepares its databases. */
export interface TwoDatabaseSetup {
  /** Creates the tables under test in the database at `url` (`appointments` is made after). */
  migrate(url: string): Promise<void>;
  /** The tables emptied in both databases before each test, in this order. */
  readonly tables: readonly string[];
}

/**
 * Declares tests on two private databases of one server, `a` and `b` (random names, made at the
 * first test of the file, each migrated and given `appointments (id text primary key)`), emptied
 * of `setup.tables` and `appointments` before each test and dropped after the file's last.
 *
 * @param title The tests' titles' prefix.
 * @param setup How the databases are prepared.
 * @returns A function declaring one test, which receives both databases.
 */
export function twoDatabaseTests(
  title: string,
  setup: TwoDatabaseSetup,
): (name: string, fn: (a: PrivateDatabase, b: PrivateDatabase) => Promise<void>) => void {
  let made: Promise<[PrivateDatabase, PrivateDatabase]> | undefined;
  const created: PrivateDatabase[] = [];
  let server: postgres.Sql | undefined;

  Deno.test.afterAll(async () => {
    if (server === undefined) return;
    try {
      for (const database of created) {
        await database.admin.end({ timeout: 5 });
        await server.unsafe(`drop database if exists ${database.name} with (force)`);
      }
    } finally {
      await server.end({ timeout: 5 });
    }
  });

  const makeDatabase = async (suffix: string): Promise<PrivateDatabase> => {
    const url = new URL(requireUrl("DATABASE_URL"));
    server ??= postgres(url.href, { max: 2, onnotice: () => {} });
    const name = `test_unitdb_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}_${suffix}`;
    await server.unsafe(`create database ${name}`);
    url.pathname = `/${name}`;
    const database = {
      name,
      url: url.href,
      admin: postgres(url.href, { max: 1, onnotice: () => {} }),
    };
    created.push(database);
    await setup.migrate(database.url);
    await database.admin`create table appointments (id text primary key)`;
    return database;
  };

  return (name, fn) =>
    Deno.test({
      name: `${title}: ${name}`,
      ignore: ignoreWithout("DATABASE_URL"),
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => {
        // Both at once: a CREATE DATABASE waits on its files, not on the CPU.
        made ??= Promise.all([makeDatabase("a"), makeDatabase("b")]);
        const [a, b] = await made;
        for (const { admin } of [a, b]) {
          for (const table of [...setup.tables, "appointments"]) {
            await admin.unsafe(`delete from ${table}`);
          }
        }
        await fn(a, b);
      },
    });
}

/**
 * The rows of a table of the database.
 *
 * @param database One of the cases' databases.
 * @param table The table, qualified as needed.
 * @returns How many rows it holds.
 */
export async function countRows(database: PrivateDatabase, table: string): Promise<number> {
  const [row] = await database.admin.unsafe(`select count(*)::int as n from ${table}`);
  return row!.n as number;
}

/**
 * Declares the cases for an ORM.
 *
 * @param title The title's prefix (`KnexJobStore`, `DrizzleJobStore (node-postgres)`).
 * @param orm How to reach the ORM.
 */
export function unitDatabaseCases(title: string, orm: UnitDatabaseOrm): void {
  const test = twoDatabaseTests(title, {
    migrate: (url) => orm.migrate(url),
    tables: [
      `${jobSchema}.background_jobs`,
      ...(orm.outboxName === undefined
        ? []
        : [`${jobSchema}.kit_outbox_deliveries`, `${jobSchema}.kit_outbox`]),
    ],
  });

  test(
    "a store on another database than the unit of work is refused, and neither database keeps the job",
    async (a, b) => {
      const unitSide = await orm.open(a.url);
      const otherSide = await orm.open(b.url);
      try {
        const { app, PlanReminder } = build(unitSide, otherSide.store());
        const refused = (error: unknown) => {
          assert.ok(error instanceof Error, "an Error");
          assert.match(error.message, new RegExp(`^${orm.storeName} was made on a client of`));
          assert.ok(error.message.includes(`database "${b.name}"`), error.message);
          assert.ok(error.message.includes(`is on database "${a.name}"`), error.message);
          assert.match(error.message, /beyond-one-database\.md/);
          return true;
        };
        await assert.rejects(() => app.commands.execute(new PlanReminder("r1")), refused);
        // Refused again: a verdict of "another database" is never kept.
        await assert.rejects(() => app.commands.execute(new PlanReminder("r2")), refused);
        for (const database of [a, b]) {
          assert.equal(await countRows(database, `${jobSchema}.background_jobs`), 0, database.name);
        }
        assert.equal(await countRows(a, "appointments"), 0, "the command rolled back");
      } finally {
        await unitSide.close();
        await otherSide.close();
      }
    },
  );

  if (orm.outboxName !== undefined) outboxCases(test, orm, orm.outboxName);

  test(
    "a store on a second client of the unit's database enqueues in the unit, and the job is claimed",
    async (a, b) => {
      const unitSide = await orm.open(a.url);
      const second = await orm.open(a.url);
      try {
        const { app, jobs, ran, PlanReminder } = build(unitSide, second.store());
        const { id } = await app.commands.execute(new PlanReminder("s1"));
        // The pair found on one database is not asked again.
        await app.commands.execute(new PlanReminder("s2"));
        assert.equal(await countRows(a, `${jobSchema}.background_jobs`), 2);
        assert.equal(await countRows(a, "appointments"), 2);
        assert.equal(await countRows(b, `${jobSchema}.background_jobs`), 0);
        assert.equal(await jobs.runDue(), 2);
        assert.deepEqual(ran.sort(), ["s1", "s2"]);
        assert.equal((await jobs.find(id))?.status, "succeeded");
      } finally {
        await unitSide.close();
        await second.close();
      }
    },
  );

  test("a store on the unit's own client enqueues in the unit, and the job is claimed", async (a) => {
    const client = await orm.open(a.url);
    try {
      const { app, jobs, ran, PlanReminder } = build(client, client.store());
      const { id } = await app.commands.execute(new PlanReminder("o1"));
      assert.equal(await countRows(a, `${jobSchema}.background_jobs`), 1);
      assert.equal(await jobs.runDue(), 1);
      assert.deepEqual(ran, ["o1"]);
      assert.equal((await jobs.find(id))?.status, "succeeded");
    } finally {
      await client.close();
    }
  });
}

type DeclareTest = ReturnType<typeof twoDatabaseTests>;

/** A fresh event of the type the outbox cases subscribe `notify` to. */
function plannedEvent(appointmentId: string): IntegrationEvent {
  return {
    id: crypto.randomUUID(),
    type: "scheduling.reminder.planned",
    version: 1,
    occurredAt: "2026-07-01T10:00:00.000Z",
    payload: { appointmentId },
  };
}

function outboxOn(client: OrmClient): Outbox {
  const outbox = client.outbox!();
  outbox.subscribe(new Map([["scheduling.reminder.planned", ["notify"]]]));
  return outbox;
}

/** Claims the due deliveries of the outbox (due now, or a minute from now at the latest). */
function claimDue(outbox: Outbox): Promise<OutboxDelivery[]> {
  return outbox.claim({ now: new Date(Date.now() + 60_000), limit: 10, leaseMs: 60_000 });
}

/**
 * An outbox (`PostgresOutbox`, `DrizzleOutbox`, `KnexOutbox`) on another database than the unit
 * of work: an append and a completion refused, naming both databases, with nothing written; on a
 * second client of the unit's database and on the unit's own client, both written in the unit.
 */
function outboxCases(test: DeclareTest, orm: UnitDatabaseOrm, outboxName: string): void {
  const events = `${jobSchema}.kit_outbox`;
  const pending = `${jobSchema}.kit_outbox_deliveries where delivered_at is null`;
  const refused = (a: PrivateDatabase, b: PrivateDatabase) => (error: unknown) => {
    assert.ok(error instanceof Error, "an Error");
    assert.match(error.message, new RegExp(`^${outboxName} was made on a client of`));
    assert.ok(error.message.includes(`database "${b.name}"`), error.message);
    assert.ok(error.message.includes(`is on database "${a.name}"`), error.message);
    assert.ok(error.message.includes(`${outboxName} wrote nothing`), error.message);
    return true;
  };

  test(
    `${outboxName} on another database than the unit of work is refused, and neither database keeps the event`,
    async (a, b) => {
      const unitSide = await orm.open(a.url);
      const otherSide = await orm.open(b.url);
      try {
        const outbox = outboxOn(otherSide);
        for (const id of ["e1", "e2"]) {
          await assert.rejects(
            () => unitSide.transactions.run((unit) => outbox.append(plannedEvent(id), unit)),
            refused(a, b),
          );
        }
        for (const database of [a, b]) {
          assert.equal(await countRows(database, events), 0, database.name);
        }
      } finally {
        await unitSide.close();
        await otherSide.close();
      }
    },
  );

  test(
    `${outboxName} on another database than the handler's unit of work is refused to mark a delivery done`,
    async (a, b) => {
      const unitSide = await orm.open(a.url);
      const otherSide = await orm.open(b.url);
      try {
        const outbox = outboxOn(otherSide);
        await otherSide.transactions.run((unit) => outbox.append(plannedEvent("c1"), unit));
        const deliveries = await claimDue(outbox);
        assert.equal(deliveries.length, 1);
        await assert.rejects(
          () => unitSide.transactions.run((unit) => outbox.complete(deliveries, unit)),
          refused(a, b),
        );
        assert.equal(await countRows(b, pending), 1, "the delivery is not done");
      } finally {
        await unitSide.close();
        await otherSide.close();
      }
    },
  );

  const appendsAndCompletes = async (a: PrivateDatabase, unitSide: OrmClient, outbox: Outbox) => {
    for (const id of ["s1", "s2"]) {
      await unitSide.transactions.run((unit) => outbox.append(plannedEvent(id), unit));
    }
    assert.equal(await countRows(a, events), 2);
    const deliveries = await claimDue(outbox);
    assert.equal(deliveries.length, 2);
    await unitSide.transactions.run((unit) => outbox.complete(deliveries, unit));
    assert.equal(await countRows(a, pending), 0, "both deliveries done");
  };

  test(
    `${outboxName} on a second client of the unit's database appends and completes in the unit`,
    async (a, b) => {
      const unitSide = await orm.open(a.url);
      const second = await orm.open(a.url);
      try {
        await appendsAndCompletes(a, unitSide, outboxOn(second));
        assert.equal(await countRows(b, events), 0);
      } finally {
        await unitSide.close();
        await second.close();
      }
    },
  );

  test(
    `${outboxName} on the unit's own client appends and completes in the unit`,
    async (a) => {
      const client = await orm.open(a.url);
      try {
        await appendsAndCompletes(a, client, outboxOn(client));
      } finally {
        await client.close();
      }
    },
  );
}

/** An application whose command writes an appointment through `unitSide` and enqueues a job. */
function build(unitSide: OrmClient, store: JobStore) {
  const ran: string[] = [];

  @Background()
  class SendReminder {
    static readonly jobName = "scheduling.send-reminder";
    run(payload: { appointmentId: string }, _execution: BackgroundJobExecution): Promise<void> {
      ran.push(payload.appointmentId);
      return Promise.resolve();
    }
  }

  class PlanReminder extends Command<{ id: string }> {
    constructor(readonly appointmentId: string) {
      super(systemActor);
    }
  }

  @Handles(PlanReminder)
  class PlanReminderHandler {
    constructor(private readonly jobs: JobQueue) {}
    async handle(command: PlanReminder): Promise<{ id: string }> {
      await unitSide.insertAppointment(command.appointmentId);
      return await this.jobs.enqueue(SendReminder, { appointmentId: command.appointmentId });
    }
  }

  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [SendReminder, PlanReminderHandler],
        dependencies: new Map([[PlanReminderHandler, [JobQueue]]]),
      }),
    ],
    clock: new TestClock("2026-07-01T10:00:00Z"),
    transactions: unitSide.transactions,
    plugins: {
      backgroundJobs: jobsPlugin({ store, start: false, pollInterval: "1h" }),
    },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  return { app, jobs, ran, PlanReminder };
}
