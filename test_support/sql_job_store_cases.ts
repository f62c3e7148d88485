/**
 * What every PostgreSQL job store runs, on each driver (postgres.js, Drizzle, Knex): the whole
 * store contract, and the cases of a store that shares the use case's transaction through the
 * driver's unit of work — a command's repository write and its job commit together (a rollback
 * leaves neither), the committed job is claimed and run by kit's worker, an idle worker wakes on
 * the insert's notification, many jobs go in one statement, and the unit of work translates
 * PostgreSQL errors.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  type BackgroundJobExecution,
  Command,
  composeApplication,
  defineModule,
  Handles,
  JobQueue,
  systemActor,
  type TransactionManager,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, jobsPlugin, type JobStore } from "@kit/jobs";
import { jobStoreContract } from "@kit/jobs/testing";
import { ignoreWithout } from "./services.ts";

/**
 * A driver opened on a fresh schema holding the job tables and `appointments (id text primary
 * key)`.
 */
export interface OpenedOrm {
  /** The driver's unit of work. */
  readonly transactions: TransactionManager;
  /** The ORM's job store; `listen` as given. */
  store(options: { listen: boolean }): JobStore;
  /** Inserts an appointment through the ORM, in the unit of work under way. */
  insertAppointment(id: string): Promise<void>;
  /** Runs `select 1 / 0` through the ORM, in the unit of work under way. */
  divideByZero(): Promise<void>;
  /** How many appointments and jobs are kept, read outside any unit. */
  count(table: "appointments" | "background_jobs"): Promise<number>;
}

/**
 * Declares the store contract and the cases for a driver.
 *
 * @param name The store's name, for the test titles.
 * @param withOrm Runs a case on a fresh schema, then drops it.
 */
export function sqlJobStoreCases(
  name: string,
  withOrm: (fn: (orm: OpenedOrm) => Promise<void>) => Promise<void>,
): void {
  jobStoreContract({
    name,
    ignore: ignoreWithout("DATABASE_URL"),
    open: () =>
      new Promise((resolveOpen, rejectOpen) => {
        let finish!: () => void;
        const finished = new Promise<void>((resolve) => (finish = resolve));
        const done = withOrm(async (orm) => {
          resolveOpen({
            store: orm.store({ listen: false }),
            transactions: orm.transactions,
            close: async () => {
              finish();
              await done;
            },
          });
          await finished;
        });
        done.catch(rejectOpen);
      }),
  });

  const test = (title: string, fn: (orm: OpenedOrm) => Promise<void>) =>
    Deno.test({
      name: `${name}: ${title}`,
      ignore: ignoreWithout("DATABASE_URL"),
      sanitizeResources: false,
      sanitizeOps: false,
      fn: () => withOrm(fn),
    });

  test("a rolled-back command leaves neither its write nor its job; a committed one's job is claimed and run", async (orm) => {
    const { app, jobs, ran, PlanReminder } = build(orm, { start: false });
    await assert.rejects(
      () => app.commands.execute(new PlanReminder("a1", true)),
      /planning refused/,
    );
    assert.equal(await orm.count("appointments"), 0);
    assert.equal(await orm.count("background_jobs"), 0);
    const { id } = await app.commands.execute(new PlanReminder("a1"));
    assert.equal(await orm.count("appointments"), 1);
    assert.equal((await jobs.find(id))?.status, "waiting");
    assert.equal(await jobs.runDue(), 1);
    assert.deepEqual(ran, ["a1"]);
    assert.equal((await jobs.find(id))?.status, "succeeded");
  });

  test("enqueueMany writes many jobs in one statement, one per idempotency key", async (orm) => {
    const { jobs, ran, SendReminder } = build(orm, { start: false });
    const results = await jobs.queue.enqueueMany(SendReminder, [
      { payload: { appointmentId: "m1" }, options: { idempotencyKey: "m1" } },
      { payload: { appointmentId: "m2" } },
      { payload: { appointmentId: "m1-again" }, options: { idempotencyKey: "m1" } },
    ]);
    assert.equal(results.length, 3);
    assert.equal(results[2]!.duplicate, true);
    assert.equal(results[2]!.id, results[0]!.id);
    assert.equal(await jobs.runDue(), 2);
    assert.deepEqual(ran.sort(), ["m1", "m2"]);
  });

  test("the unit of work turns a PostgreSQL error into the refusal PostgresTransactions answers", async (orm) => {
    const error = await orm.transactions.run(() => orm.divideByZero()).then(
      () => assert.fail("select 1 / 0 succeeded"),
      (error: unknown) => error,
    );
    const refusal = orm.transactions.translateError!(error) as { code?: string };
    assert.equal(refusal.code, "INVALID_INPUT");
    const other = new Error("not the database's");
    assert.equal(orm.transactions.translateError!(other), other);
  });

  test("an idle worker starts a committed job at once (LISTEN/NOTIFY), not at the next poll", async (orm) => {
    const { app, jobs, ran, firstRun, PlanReminder } = build(orm, { start: true });
    await app.start();
    try {
      const { id } = await app.commands.execute(new PlanReminder("a2"));
      // The poll interval is an hour on a clock that never moves: only the notification wakes it.
      await within(firstRun, 5_000, "the worker never woke for the committed job");
      assert.deepEqual(ran, ["a2"]);
      for (let i = 0; i < 200 && (await jobs.find(id))?.status !== "succeeded"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.equal((await jobs.find(id))?.status, "succeeded");
    } finally {
      await app.stop();
    }
  });
}

function build(orm: OpenedOrm, options: { start: boolean }) {
  const ran: string[] = [];
  let started: (() => void) | undefined;
  const firstRun = new Promise<void>((resolve) => (started = resolve));

  @Background()
  class SendReminder {
    static readonly jobName = "scheduling.send-reminder";
    run(payload: { appointmentId: string }, _execution: BackgroundJobExecution): Promise<void> {
      ran.push(payload.appointmentId);
      started?.();
      return Promise.resolve();
    }
  }

  class PlanReminder extends Command<{ id: string }> {
    constructor(readonly appointmentId: string, readonly fail = false) {
      super(systemActor);
    }
  }

  @Handles(PlanReminder)
  class PlanReminderHandler {
    constructor(private readonly jobs: JobQueue) {}
    async handle(command: PlanReminder): Promise<{ id: string }> {
      await orm.insertAppointment(command.appointmentId);
      const result = await this.jobs.enqueue(SendReminder, {
        appointmentId: command.appointmentId,
      });
      if (command.fail) throw new Error("planning refused");
      return result;
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
    transactions: orm.transactions,
    plugins: {
      backgroundJobs: jobsPlugin({
        store: orm.store({ listen: options.start }),
        start: options.start,
        pollInterval: "1h",
      }),
    },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  return { app, jobs, ran, firstRun, PlanReminder, SendReminder };
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
