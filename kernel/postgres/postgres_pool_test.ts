import assert from "node:assert/strict";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import postgres from "postgres";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import { until } from "../../test_support/until.ts";
import type { LogRecord } from "../logging/logger.ts";
import { TestClock } from "../time/test_clock.ts";
import { observePostgresPool, postgresHealthCheck, postgresPoolState } from "../postgres.ts";

class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A stand-in client whose pool state the test sets. */
function fakeClient(state: { waiting: number; lastAnswerAt: number }) {
  let selects = 0;
  const sql = Object.assign(() => (selects++, Promise.resolve([])), {
    poolState: () => ({ inUse: 2, idle: 0, connecting: 0, ...state }),
  }) as unknown as postgres.Sql;
  return { sql, selects: () => selects };
}

Deno.test("postgresHealthCheck fails while statements wait and the server has answered nothing for stalledAfter, logging POOL_STALLED once and POOL_RECOVERED after", async () => {
  const clock = new TestClock();
  const lines: LogRecord[] = [];
  const state = { waiting: 3, lastAnswerAt: clock.now().getTime() };
  const { sql, selects } = fakeClient(state);
  const check = postgresHealthCheck(sql, {
    stalledAfter: "10s",
    clock,
    logger: { log: (record) => void lines.push(record) },
  });
  const signal = new AbortController().signal;
  clock.advance(10_000);
  await check(signal);
  assert.equal(selects(), 1, "not stalled yet: the server is asked");
  clock.advance(1);
  await assert.rejects(check(signal), /stalled/);
  await assert.rejects(check(signal), /stalled/);
  assert.equal(selects(), 1, "a stalled pool is not asked");
  assert.deepEqual(lines.map((line) => [line.component, line.code]), [["db.pool", "POOL_STALLED"]]);
  state.lastAnswerAt = clock.now().getTime();
  await check(signal);
  state.waiting = 0;
  state.lastAnswerAt = 0;
  await check(signal);
  assert.deepEqual(lines.map((line) => line.code), ["POOL_STALLED", "POOL_RECOVERED"]);
  assert.equal(postgresPoolState(sql)?.waiting, 0);
});

Deno.test({
  name:
    "postgresPoolState and kit.db.pool.connections: connections in use and idle, statements waiting, the last answer",
  ignore: ignoreWithout("DATABASE_URL"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withTestDatabase(async ({ url }) => {
      const sql = postgres(url, { max: 2, onnotice: () => {} });
      const reader = new TestReader();
      const provider = new MeterProvider({ readers: [reader] });
      const stop = observePostgresPool(sql, { meterProvider: provider });
      const gauge = async () => {
        const { resourceMetrics } = await reader.collect();
        const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
          .find((m) => m.descriptor.name === "kit.db.pool.connections");
        return Object.fromEntries(
          (metric?.dataPoints ?? []).map((p) => [p.attributes.state as string, p.value as number]),
        );
      };
      try {
        const before = Date.now();
        await sql`select 1`;
        assert.ok(postgresPoolState(sql)!.lastAnswerAt.getTime() >= before);
        // Both transactions' bodies hold their connection until released. A connection counts
        // as in use from its BEGIN, before the body runs: wait for both bodies, or the release
        // would miss the one whose BEGIN had not answered yet.
        const releases: (() => void)[] = [];
        const held = Array.from({ length: 2 }, () =>
          sql.begin(() => new Promise<void>((resolve) => releases.push(resolve))));
        held.forEach((transaction) =>
          transaction.catch(() => {})
        );
        await until(
          () => releases.length === 2 && postgresPoolState(sql)!.inUse === 2,
          "both transactions holding their connection",
          { ms: 10_000 },
        );
        const queued = sql`select 2`;
        queued.catch(() => {});
        // A statement is handed to the pool in a later turn.
        await until(() => postgresPoolState(sql)!.waiting >= 1, "the statement waiting", {
          ms: 10_000,
        });
        const state = postgresPoolState(sql)!;
        assert.deepEqual([state.inUse, state.idle, state.waiting], [2, 0, 1]);
        assert.deepEqual(await gauge(), { in_use: 2, idle: 0, waiting: 1 });
        for (const release of releases) release();
        await Promise.all(held);
        await queued;
        assert.deepEqual(await gauge(), { in_use: 0, idle: 2, waiting: 0 });
      } finally {
        stop();
        await provider.shutdown();
        await sql.end({ timeout: 1 });
      }
    }),
});
