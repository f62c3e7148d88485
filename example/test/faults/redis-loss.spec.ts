/**
 * No job acknowledged is lost when Redis fails: `src/main.ts` on a private PostgreSQL with its job
 * store on a private Redis (append-only file, `appendfsync everysec`), the worker in process,
 * under a load of clearances (each request enqueues a job in its command's transaction, through
 * the outbox). Redis is killed (`kill -9`, 10 s down) and restarted from its files, frozen
 * (`SIGSTOP`, 20 s), then restarted without persistence (5 s, its data gone) and given its
 * persistence back. Every clearance
 * answered 202 is eventually run by Redis's worker; every other answer is a 503 with
 * `Retry-After`; readiness is red while Redis is down, frozen, not durable or lost its data, and
 * green again by itself.
 */
import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import {
  type PrivateRedis,
  skipWithoutRedisServer,
  startPrivateRedis,
} from "../../../test_support/private_redis.ts";
import {
  type AppProcess,
  noPrivatePostgres,
  openCalendar,
  practitioner,
  send,
  startApp,
} from "./fault-app.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A client's pause after each clearance acknowledged (202). */
const paceMs = 25;

/** One readiness answer, when it came (ms since the load began). */
interface Probe {
  readonly at: number;
  readonly ready: boolean;
}

/** A phase of the spec, from when to when (ms since the load began). */
interface Phase {
  readonly name: string;
  from: number;
  to: number;
}

/**
 * Requests clearances of far-away periods (nothing to cancel: each job runs at once) one after
 * another, each with its own Idempotency-Key, retried with it after anything but 202; records
 * every status and the ids acknowledged.
 */
async function clearanceLoad(
  app: AppProcess,
  calendarId: string,
  until: () => boolean,
  acknowledged: string[],
  answers: { status: number; retryAfter: string | null }[],
): Promise<void> {
  const start = Date.UTC(2090, 0, 1);
  for (let n = 0; !until(); n++) {
    const key = crypto.randomUUID();
    const body = {
      from: new Date(start + n * 7_200_000).toISOString(),
      until: new Date(start + n * 7_200_000 + 3_600_000).toISOString(),
      reason: `fault ${n}`,
    };
    for (;;) {
      const answer = await send(app, "POST", `/calendars/${calendarId}/clearances`, {
        as: practitioner,
        body,
        key,
      });
      answers.push({ status: answer.status, retryAfter: answer.headers.get("retry-after") });
      if (answer.status === 202) {
        acknowledged.push(answer.body.id as string);
        // Paced: an unpaced pair of clients took both cores for the spec's 47 s.
        await pause(paceMs);
        break;
      }
      if (until()) break;
      await pause(100);
    }
  }
}

async function probeReadiness(app: AppProcess, until: () => boolean, probes: Probe[], t0: number) {
  while (!until()) {
    const response = await fetch(`${app.base}/health/ready`).catch(() => undefined);
    await response?.body?.cancel();
    probes.push({ at: performance.now() - t0, ready: response?.status === 200 });
    await pause(100);
  }
}

Deno.test({
  name:
    "Redis killed, frozen and restarted without persistence under enqueues: no acknowledged job lost, readiness red meanwhile",
  ignore: noPrivatePostgres || skipWithoutRedisServer,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const redisServer: PrivateRedis = await startPrivateRedis(["--appendonly", "yes"]);
      const app = await startApp(server, {
        REDIS_URL: redisServer.url,
        DATABASE_POOL_SIZE: "6",
      });
      const client = new IORedis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      client.on("error", () => {});
      const acknowledged: string[] = [];
      const answers: { status: number; retryAfter: string | null }[] = [];
      const probes: Probe[] = [];
      const phases: Phase[] = [];
      let stopped = false;
      try {
        await openCalendar(app, "redis-loss");
        const t0 = performance.now();
        const now = () => performance.now() - t0;
        const load = Promise.all([
          clearanceLoad(app, "redis-loss", () => stopped, acknowledged, answers),
          clearanceLoad(app, "redis-loss", () => stopped, acknowledged, answers),
          probeReadiness(app, () => stopped, probes, t0),
        ]).then(() => undefined, (error: unknown) => error);
        const phase = async (name: string, run: () => Promise<void>, holdMs: number) => {
          const entry: Phase = { name, from: now(), to: 0 };
          await run();
          await pause(holdMs);
          entry.to = now();
          phases.push(entry);
        };

        await pause(1_500);
        await phase("killed", () => redisServer.stop("SIGKILL"), 10_000);
        await redisServer.start();
        await pause(2_500);
        await phase("frozen", () => Promise.resolve(redisServer.freeze()), 20_000);
        redisServer.thaw();
        await pause(2_500);
        await phase("restarted without persistence", async () => {
          await redisServer.stop("SIGKILL");
          await redisServer.start(["--appendonly", "no"]);
        }, 5_000);
        await client.connect();
        await client.config("SET", "appendonly", "yes");
        await pause(3_000);
        stopped = true;
        const failed = await load;
        if (failed !== undefined) throw failed;
        assert.ok(app.alive(), `the process exited: ${app.errors().slice(-3000)}`);

        // Every answer was 202, or 503 with Retry-After: never a 500.
        const other = answers.filter((a) =>
          a.status !== 202 && !(a.status === 503 && a.retryAfter !== null)
        );
        assert.deepEqual(other, [], "every answer is 202 or 503 with Retry-After");
        assert.ok(acknowledged.length > 50, `a load ran: ${acknowledged.length} acknowledged`);

        // Readiness went red in each phase (allowing the monitor's second and the probe's time).
        for (const { name, from, to } of phases) {
          const inPhase = probes.filter((p) => p.at >= from + 1_500 && p.at <= to);
          assert.ok(inPhase.length > 0, `probes during '${name}'`);
          assert.ok(inPhase.some((p) => !p.ready), `readiness red while Redis is ${name}`);
        }

        // Every acknowledged job is eventually in Redis and run.
        let missing = acknowledged;
        const deadline = Date.now() + 30_000;
        while (missing.length > 0 && Date.now() < deadline) {
          const states = await Promise.all(
            missing.map((id) => client.hget(`kit:jobs:job:${id}`, "st")),
          );
          missing = missing.filter((_, i) => states[i] !== "succeeded");
          if (missing.length > 0) await pause(500);
        }
        assert.deepEqual(
          missing,
          [],
          `${missing.length} of ${acknowledged.length} acknowledged jobs never ran`,
        );
        const ready = await fetch(`${app.base}/health/ready`);
        await ready.body?.cancel();
        assert.equal(ready.status, 200, "ready again by itself");
        console.log(
          `redis-loss: ${acknowledged.length} clearances acknowledged, ${
            answers.filter((a) => a.status === 503).length
          } answered 503, ${probes.filter((p) => !p.ready).length} of ${probes.length} probes red`,
        );
      } finally {
        stopped = true;
        client.disconnect();
        await app.stop();
        await redisServer.close();
      }
    }),
});
