import assert from "node:assert/strict";
import { assertComplete, type Figure, missingRows } from "./report.ts";
import {
  expectedRows,
  graphile,
  graphileLocalQueue,
  kitPg,
  kitPgPrefetch,
  measuresOf,
  pgBoss,
  pgPairs,
  pgRunners,
  redisPairs,
  redisRunners,
} from "./rows.ts";
import { pgBossCapTarget, pgBossWorkOptions } from "./settings.mjs";

const measures = measuresOf(4000, [1, 10, 50]);
const rows = expectedRows(measures, pgRunners);
const figuresOf = (expected: typeof rows): Figure[] =>
  expected.map((r) => ({ ...r, unit: "jobs/s", value: 1 }));

Deno.test("expectedRows: kit at its defaults on every measure; look-ahead rows process and start", () => {
  const whoRuns = (title: string) => rows.filter((r) => r.measure === title).map((r) => r.who);
  assert.deepEqual(whoRuns("enqueue, one job per call"), [kitPg, graphile, pgBoss]);
  for (const c of [1, 10, 50]) {
    assert.deepEqual(whoRuns(`process no-op jobs, concurrency ${c}`), [
      kitPg,
      kitPgPrefetch,
      graphile,
      graphileLocalQueue,
      pgBoss,
    ]);
  }
  assert.equal(whoRuns("idle enqueue-to-start latency p99").length, 5);
  assert.equal(rows.length, 2 * 3 + 3 * 5 + 2 * 5);
});

Deno.test("assertComplete: a table with every row passes; one row missing fails, naming it", () => {
  assertComplete("T", figuresOf(rows), rows);
  const without = figuresOf(rows).filter((f) =>
    !(f.measure === "process no-op jobs, concurrency 10" && f.who === graphileLocalQueue)
  );
  assert.deepEqual(missingRows(without, rows), [
    `process no-op jobs, concurrency 10 / ${graphileLocalQueue}`,
  ]);
  assert.throws(
    () => assertComplete("PostgreSQL table", without, rows),
    new Error(
      `PostgreSQL table: 1 row(s) missing: process no-op jobs, concurrency 10 / ${graphileLocalQueue}`,
    ),
  );
  // A row that failed is a row: it is there, saying why.
  const failed = figuresOf(rows).map((f) => f.who === pgBoss ? { ...f, value: "failed: x" } : f);
  assertComplete("T", failed, rows);
});

Deno.test("every pair of the targets names rows of its table", () => {
  const pg = new Set(pgRunners.map((r) => r.name));
  for (const pair of pgPairs) for (const who of pair) assert.ok(pg.has(who), who);
  const redis = new Set(redisRunners.map((r) => r.name));
  for (const pair of redisPairs) for (const who of pair) assert.ok(redis.has(who), who);
  assert.deepEqual(pgPairs.find(([a]) => a === kitPgPrefetch), [kitPgPrefetch, graphileLocalQueue]);
});

Deno.test("each row's printed settings cite what its runner uses", () => {
  const settings = (name: string) => pgRunners.find((r) => r.name === name)!.settings;
  const n = (x: number) => x.toLocaleString("en-US");
  assert.ok(
    settings(pgBoss).includes(
      `\`batchSize\` ${[1, 10, 50].map((c) => n(pgBossWorkOptions(c).batchSize)).join(" / ")}`,
    ),
  );
  assert.ok(settings(pgBoss).includes(`a cap of ${n(pgBossCapTarget)} jobs/s`));
  assert.ok(settings(pgBoss).includes("docs/api/workers.md"));
  assert.ok(settings(graphileLocalQueue).includes("`localQueue.size` max(10, c)"));
  assert.ok(settings(graphileLocalQueue).includes("worker.graphile.org/docs/performance"));
  assert.ok(settings(kitPg).includes("no prefetch"));
  assert.ok(settings(kitPgPrefetch).includes("`prefetch` max(10, c)"));
  for (const r of [...pgRunners, ...redisRunners]) assert.ok(r.settings.length > 0, r.name);
});
