import assert from "node:assert/strict";
import { type BackgroundJobExecution, composeApplication, defineModule } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { Background, type BackgroundJobsApi, jobsPlugin } from "../mod.ts";
import { RedisJobStore, tcpScripting, upstashScripting } from "../redis.ts";

let started: (n: number) => void = () => {};

@Background()
class Ping {
  static readonly jobName = "wake.ping";
  run(payload: { n: number }, _execution: BackgroundJobExecution): Promise<void> {
    started(payload.n);
    return Promise.resolve();
  }
}

/** Fails the test if the promise has not settled within `ms` of real time (a guard, not a wait). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

Deno.test({
  name:
    "RedisJobStore over TCP wakes an idle worker at once: a job enqueued by another store instance starts without the clock moving",
  ignore: ignoreWithout("REDIS_URL"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const url = requireUrl("REDIS_URL");
    const prefix = `test:${crypto.randomUUID()}:`;
    const [workerRedis, producerRedis] = [new IORedis(url), new IORedis(url)];
    const clock = new TestClock();
    const app = (redis: IORedis, start: boolean) =>
      composeApplication({
        modules: [defineModule("wake", { declarations: [Ping] })],
        clock,
        plugins: {
          backgroundJobs: jobsPlugin({
            store: new RedisJobStore(tcpScripting(redis), { prefix, requireDurability: "off" }),
            start,
            pollInterval: "1h",
          }),
        },
      });
    const worker = app(workerRedis, true);
    const producer = app(producerRedis, false);
    try {
      await worker.start();
      // The worker is idle once its first claim found nothing and it waits for the poll.
      await within(
        (async () => {
          while (clock.pendingSleepers === 0) await new Promise((r) => setTimeout(r, 0));
        })(),
        5_000,
        "the worker to be idle",
      );
      const ran = new Promise<number>((resolve) => (started = resolve));
      await (producer.backgroundJobs as BackgroundJobsApi).enqueue(Ping, { n: 7 });
      assert.equal(await within(ran, 5_000, "the job to start"), 7);
      assert.equal(clock.now().toISOString(), "2026-01-01T00:00:00.000Z");
    } finally {
      await worker.stop();
      const keys = await workerRedis.keys(`${prefix}*`);
      if (keys.length > 0) await workerRedis.del(...keys);
      workerRedis.disconnect();
      producerRedis.disconnect();
    }
  },
});

Deno.test("RedisJobStore listens when its adapter can subscribe and unless told not to", () => {
  // Neither client connects: no store is asked anything.
  const tcp = new IORedis("redis://127.0.0.1:1", { lazyConnect: true });
  const http = new UpstashRedis({ url: "http://127.0.0.1:1", token: "t", enableTelemetry: false });
  assert.equal(typeof new RedisJobStore(tcpScripting(tcp)).jobListen, "function");
  assert.equal(new RedisJobStore(tcpScripting(tcp), { listen: false }).jobListen, undefined);
  assert.equal(new RedisJobStore(upstashScripting(http)).jobListen, undefined);
  tcp.disconnect();
});
