import assert from "node:assert/strict";
import {
  composeApplication,
  defineModule,
  isRefusal,
  JobQueue,
  type TransactionManager,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { pgTest } from "../../test_support/services.ts";
import { type BackgroundJobsApi, jobsPlugin, type JobStore } from "../mod.ts";
import {
  ClearCalendar,
  RequestClearance,
  RequestClearanceHandler,
  withRedisToKill,
} from "../testdata/clearance_case.ts";
import { migrateJobOutbox, OutboxJobStore } from "../outbox.ts";

function application(store: JobStore, transactions: TransactionManager) {
  const app = composeApplication({
    modules: [
      defineModule("clearances", {
        declarations: [ClearCalendar, RequestClearanceHandler],
        dependencies: new Map([[RequestClearanceHandler, [JobQueue]]]),
      }),
    ],
    clock: new TestClock("2026-06-01T08:00:00Z"),
    transactions,
    plugins: { backgroundJobs: jobsPlugin({ store }) },
  });
  return { app, jobs: app.backgroundJobs as BackgroundJobsApi };
}

pgTest(
  "A command enqueueing with Redis down: plain store refuses with SERVICE_UNAVAILABLE, the outbox-backed store commits and delivers once Redis is back",
  async ({ sql }) => {
    await migrateJobOutbox(sql);
    await withRedisToKill(async ({ server, redis, store: redisStore }) => {
      const transactions = new PostgresTransactions(sql);
      const plain = application(redisStore, transactions);
      const outbox = new OutboxJobStore(redisStore, sql, { onRelayError: () => {} });
      const backed = application(outbox, transactions);
      await server.stop("SIGKILL");

      const started = performance.now();
      await assert.rejects(
        plain.app.commands.execute(new RequestClearance("cal-1")),
        (error: unknown) => isRefusal(error, "SERVICE_UNAVAILABLE"),
      );
      assert.ok(performance.now() - started < 3_000, "refused within the time-out, no hang");

      const { id } = await backed.app.commands.execute(new RequestClearance("cal-2"));
      assert.equal((await backed.jobs.find(id))?.status, "waiting", "found while in the outbox");
      await outbox.stop();

      await server.start();
      for (let i = 0; i < 100 && redis.status !== "ready"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(await outbox.relay(), 1);
      assert.equal((await redisStore.jobFind({ id, reach: {} }))?.status, "waiting");
    });
  },
);
