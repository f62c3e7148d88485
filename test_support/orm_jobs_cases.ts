/**
 * The cases every ORM job store runs beside the store contract: a command's repository write and
 * its job commit together through the ORM's unit of work (a rollback leaves neither), the
 * committed job is claimed and run by kit's worker, and an idle worker wakes on the insert's
 * notification.
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
  TestClock,
  type TransactionManager,
} from "@kit/kernel";
import { Background, type BackgroundJobsApi, jobsPlugin, type JobStore } from "@kit/jobs";
import { ignoreWithout } from "./services.ts";

/** One ORM opened on a fresh schema, with the table `appointments (id text primary key)`. */
export interface OpenedOrm {
  /** The ORM's unit of work. */
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
 * Declares the cases for an ORM.
 *
 * @param name The store's name, for the test titles.
 * @param withOrm Runs a case on a fresh schema, then drops it.
 */
export function ormJobsCases(
  name: string,
  withOrm: (fn: (orm: OpenedOrm) => Promise<void>) => Promise<void>,
): void {
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
  return { app, jobs: app.backgroundJobs as BackgroundJobsApi, ran, firstRun, PlanReminder };
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
