import assert from "node:assert/strict";
import {
  type BackgroundJobExecution,
  Command,
  composeApplication,
  defineModule,
  type EnqueueResult,
  Handles,
  isRefusal,
  JobQueue,
  systemActor,
  TestClock,
  type TransactionManager,
} from "@kit/kernel";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { Redis as IORedis } from "ioredis";
import { pgTest } from "../../test_support/services.ts";
import { startPrivateRedis } from "../../test_support/private_redis.ts";
import { Background, type BackgroundJobsApi, jobsPlugin, type JobStore } from "../mod.ts";
import { failFastRedisOptions, RedisJobStore, tcpScripting } from "../redis.ts";
import { migrateJobOutbox, OutboxJobStore } from "../outbox.ts";

@Background()
class SendClearance {
  static readonly jobName = "clearances.send";
  run(_payload: { n: number }, _execution: BackgroundJobExecution): Promise<void> {
    return Promise.resolve();
  }
}

class RequestClearance extends Command<EnqueueResult> {
  constructor(readonly n: number) {
    super(systemActor);
  }
}

@Handles(RequestClearance)
class RequestClearanceHandler {
  constructor(private readonly jobs: JobQueue) {}
  handle(command: RequestClearance): Promise<EnqueueResult> {
    return this.jobs.enqueue(SendClearance, { n: command.n });
  }
}

function application(store: JobStore, transactions: TransactionManager) {
  const app = composeApplication({
    modules: [
      defineModule("clearances", {
        declarations: [SendClearance, RequestClearanceHandler],
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
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = new IORedis(server.url, {
      ...failFastRedisOptions({ connectTimeoutMs: 500 }),
      lazyConnect: true,
    });
    await redis.connect();
    try {
      const transactions = new PostgresTransactions(sql);
      const redisStore = new RedisJobStore(tcpScripting(redis), {
        listen: false,
        timeoutMs: 1_000,
      });
      const plain = application(redisStore, transactions);
      const outbox = new OutboxJobStore(redisStore, sql, { onRelayError: () => {} });
      const backed = application(outbox, transactions);
      await server.stop("SIGKILL");

      const started = performance.now();
      await assert.rejects(
        plain.app.commands.execute(new RequestClearance(1)),
        (error: unknown) => isRefusal(error, "SERVICE_UNAVAILABLE"),
      );
      assert.ok(performance.now() - started < 3_000, "refused within the time-out, no hang");

      const { id } = await backed.app.commands.execute(new RequestClearance(2));
      assert.equal((await backed.jobs.find(id))?.status, "waiting", "found while in the outbox");
      await outbox.stop();

      await server.start();
      for (let i = 0; i < 100 && redis.status !== "ready"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(await outbox.relay(), 1);
      assert.equal((await redisStore.jobFind({ id, reach: {} }))?.status, "waiting");
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
);
