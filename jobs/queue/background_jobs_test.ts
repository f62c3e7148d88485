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
import type { EnqueueResult } from "@kit/kernel/types";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { Redis as IORedis } from "ioredis";
import { ignoreWithout, pgTest, requireUrl } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import {
  Background,
  type BackgroundJobsApi,
  InMemoryJobStore,
  jobsPlugin,
  type JobStore,
} from "../mod.ts";
import { RedisJobStore, tcpScripting } from "../redis.ts";

@Background()
class SendReminder {
  static readonly jobName = "reminders.send-reminder";
  run(_payload: { appointmentId: string }, _execution: BackgroundJobExecution): Promise<void> {
    return Promise.resolve();
  }
}

/** Enqueues one reminder per key given, in the command's unit of work. */
class PlanReminders extends Command<EnqueueResult[]> {
  constructor(readonly keys: readonly string[], readonly fail = false) {
    super(systemActor);
  }
}

@Handles(PlanReminders)
class PlanRemindersHandler {
  constructor(private readonly jobs: JobQueue) {}
  async handle(command: PlanReminders): Promise<EnqueueResult[]> {
    const results: EnqueueResult[] = [];
    for (const key of command.keys) {
      results.push(
        await this.jobs.enqueue(SendReminder, { appointmentId: key }, { idempotencyKey: key }),
      );
    }
    if (command.fail) throw new Error("the plan was refused");
    return results;
  }
}

function application(store: JobStore, transactions?: TransactionManager) {
  const app = composeApplication({
    modules: [
      defineModule("reminders", {
        declarations: [SendReminder, PlanRemindersHandler],
        dependencies: new Map([[PlanRemindersHandler, [JobQueue]]]),
      }),
    ],
    clock: new TestClock("2026-06-01T08:00:00Z"),
    ...(transactions === undefined ? {} : { transactions }),
    plugins: { backgroundJobs: jobsPlugin({ store }) },
  });
  return { app, jobs: app.backgroundJobs as BackgroundJobsApi };
}

/**
 * The idempotency rules of `enqueue` inside a command, on a store that writes after commit: a key
 * kept already answers its job's id with `duplicate: true` (and `find` sees that job), a key
 * staged earlier in the same command answers the staged job's id, and a rolled-back command keeps
 * nothing.
 */
async function keptKeysAnswerTheKeptJob(
  store: JobStore,
  transactions?: TransactionManager,
): Promise<void> {
  const { app, jobs } = application(store, transactions);
  const [first] = await app.commands.execute(new PlanReminders(["appointment-1"]));
  assert.equal(first?.duplicate, undefined);
  const [again] = await app.commands.execute(new PlanReminders(["appointment-1"]));
  assert.deepEqual(again, { id: first!.id, duplicate: true });
  assert.equal((await jobs.find(again!.id))?.status, "waiting", "find sees the id answered");

  const [staged, stagedAgain, keptAlready] = await app.commands.execute(
    new PlanReminders(["appointment-2", "appointment-2", "appointment-1"]),
  );
  assert.deepEqual(stagedAgain, { id: staged!.id, duplicate: true });
  assert.deepEqual(keptAlready, { id: first!.id, duplicate: true });
  assert.equal((await jobs.find(staged!.id))?.status, "waiting");

  await assert.rejects(
    () => app.commands.execute(new PlanReminders(["appointment-3"], true)),
    /the plan was refused/,
  );
  const [afterRollback] = await app.commands.execute(new PlanReminders(["appointment-3"]));
  assert.equal(afterRollback?.duplicate, undefined, "a rolled-back command kept no key");

  const kept = await store.jobList();
  assert.deepEqual(
    kept.map((job) => job.idempotencyKey).sort(),
    ["appointment-1", "appointment-2", "appointment-3"],
  );
  assert.deepEqual(
    kept.map((job) => job.id).sort(),
    [first!.id, staged!.id, afterRollback!.id].sort(),
  );
}

Deno.test("BackgroundJobs on InMemoryJobStore: enqueue in a command answers a kept key's job with duplicate: true", async () => {
  await keptKeysAnswerTheKeptJob(new InMemoryJobStore());
});

Deno.test({
  name:
    "BackgroundJobs on RedisJobStore: enqueue in a command answers a kept key's job with duplicate: true",
  ignore: ignoreWithout("REDIS_URL"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const redis = new IORedis(requireUrl("REDIS_URL"), { lazyConnect: true });
    await redis.connect();
    const prefix = `test:${crypto.randomUUID()}:`;
    try {
      await keptKeysAnswerTheKeptJob(
        new RedisJobStore(tcpScripting(redis), { prefix, listen: false, requireDurability: "off" }),
      );
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  },
});

pgTest(
  "BackgroundJobs on PostgresJobStore: enqueue in a command answers a kept key's job with duplicate: true",
  async ({ sql }) => {
    await migrateJobs(sql);
    await keptKeysAnswerTheKeptJob(
      new PostgresJobStore(sql, { listen: false }),
      new PostgresTransactions(sql),
    );
  },
);
