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
} from "@kit/kernel";
import { PostgresTransactions } from "@kit/kernel/postgres";
import type postgres from "postgres";
import { pgTest } from "../../test_support/services.ts";
import { Background, type BackgroundJobsApi, jobsPlugin } from "../mod.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";

function build(sql: postgres.Sql, options: { start?: boolean } = {}) {
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
      const result = await this.jobs.enqueue(
        SendReminder,
        { appointmentId: command.appointmentId },
        {
          idempotencyKey: command.appointmentId,
        },
      );
      if (command.fail) throw new Error("planning refused");
      return result;
    }
  }

  const clock = new TestClock("2026-07-01T10:00:00Z");
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [SendReminder, PlanReminderHandler],
        dependencies: new Map([[PlanReminderHandler, [JobQueue]]]),
      }),
    ],
    clock,
    transactions: new PostgresTransactions(sql),
    plugins: {
      backgroundJobs: jobsPlugin({
        store: new PostgresJobStore(sql),
        start: options.start ?? false,
        pollInterval: "1h",
      }),
    },
  });
  return {
    app,
    jobs: app.backgroundJobs as BackgroundJobsApi,
    ran,
    firstRun,
    PlanReminder,
    SendReminder,
  };
}

pgTest(
  "Postgres: a job is written in the command's transaction; a rollback leaves no job",
  async ({ sql }) => {
    await migrateJobs(sql);
    const { app, jobs, ran, PlanReminder } = build(sql);
    await assert.rejects(
      () => app.commands.execute(new PlanReminder("a1", true)),
      /planning refused/,
    );
    assert.equal((await sql`select count(*)::int as n from background_jobs`)[0]!.n, 0);
    const { id } = await app.commands.execute(new PlanReminder("a1"));
    const again = await app.commands.execute(new PlanReminder("a1"));
    assert.deepEqual(again, { id, duplicate: true });
    assert.equal(await jobs.runDue(), 1);
    assert.deepEqual(ran, ["a1"]);
    assert.equal((await jobs.find(id))?.status, "succeeded");
  },
);

pgTest(
  "Postgres: an idle worker starts a committed job at once (LISTEN/NOTIFY), not at the next poll",
  async ({ sql }) => {
    await migrateJobs(sql);
    const { app, jobs, ran, firstRun, PlanReminder } = build(sql, { start: true });
    await app.start();
    try {
      const { id } = await app.commands.execute(new PlanReminder("a2"));
      // The poll interval is an hour on a clock that never moves: only the notification can wake it.
      await firstRun;
      assert.deepEqual(ran, ["a2"]);
      for (let i = 0; i < 100 && (await jobs.find(id))?.status !== "succeeded"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.equal((await jobs.find(id))?.status, "succeeded");
    } finally {
      await app.stop();
    }
  },
);

pgTest(
  "Postgres: enqueueMany writes many jobs in one statement, one per idempotency key",
  async ({ sql }) => {
    await migrateJobs(sql);
    const { jobs, ran, SendReminder } = build(sql);
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
  },
);
