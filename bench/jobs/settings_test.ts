import assert from "node:assert/strict";
import {
  capCheck,
  capMargin,
  graphileLocalQueuePreset,
  kitPrefetch,
  pgBossCap,
  pgBossCapNote,
  pgBossCapTarget,
  pgBossPollingIntervalSeconds,
  pgBossWorkOptions,
} from "./settings.mjs";

const here = (path: string) => new URL(path, import.meta.url);
const read = (path: string) => Deno.readTextFileSync(here(path));
const concurrencies = [1, 2, 10, 33, 50, 64];

Deno.test("kitPrefetch: the concurrency, at least 10; a bad concurrency is refused", () => {
  assert.deepEqual([1, 10, 50].map(kitPrefetch), [10, 10, 50]);
  for (const bad of [0, -1, 1.5, NaN]) {
    assert.throws(() => kitPrefetch(bad), /concurrency must be an integer from 1, got/);
  }
});

Deno.test("graphile-worker's local queue is kit's look-ahead at every concurrency", () => {
  for (const c of concurrencies) {
    const preset = graphileLocalQueuePreset(c);
    assert.equal(preset.localQueue.size, kitPrefetch(c), `c=${c}`);
    assert.equal(preset.completeJobBatchDelay, 0);
    assert.equal(preset.failJobBatchDelay, 0);
  }
});

Deno.test("pg-boss: its documented least interval, and a cap of at least the target at every c", () => {
  assert.equal(pgBossPollingIntervalSeconds, 0.5); // docs/api/workers.md: "must be >=0.5"
  for (const c of concurrencies) {
    const options = pgBossWorkOptions(c);
    assert.ok(Number.isInteger(options.batchSize) && options.batchSize >= 1, `c=${c}`);
    assert.equal(options.pollingIntervalSeconds, pgBossPollingIntervalSeconds);
    assert.equal(pgBossCap(c), c * options.batchSize / options.pollingIntervalSeconds);
    assert.ok(pgBossCap(c) >= pgBossCapTarget, `c=${c}: cap ${pgBossCap(c)}`);
  }
  // The old harness's setting (batchSize 100): a cap of 200 jobs/s per work(), under the figures
  // it printed. The cap now is far above the fastest limit row measured on this machine.
  assert.ok(pgBossCapTarget >= 8 * 11_688);
});

Deno.test("capCheck: a figure within capMargin of its cap is flagged as the harness's", () => {
  assert.equal(capMargin, 5);
  const at = capCheck(2_188, 2_000);
  assert.equal(at.ok, false);
  assert.match(at.note, /^AT ITS CAP: cap 2,000 jobs\/s is under 5x the figure/);
  assert.equal(capCheck(20_001, 100_000).ok, false);
  const far = capCheck(10_000, 100_000);
  assert.equal(far.ok, true);
  assert.equal(far.note, "cap 100,000 jobs/s, 10x the figure");
});

Deno.test("the runners use these settings, and only these", () => {
  const pgBoss = read("./pg_boss_runner.mjs");
  assert.match(pgBoss, /worker\.work\(queue, pgBossWorkOptions\(concurrency\),/);
  assert.match(pgBoss, /cap: pgBossCap\(params\.concurrency\)/);
  assert.doesNotMatch(pgBoss, /batchSize:/);
  const graphile = read("./graphile_worker_runner.mjs");
  assert.match(graphile, /preset: \{ worker: graphileLocalQueuePreset\(concurrency\) \}/);
  assert.doesNotMatch(graphile, /localQueue: \{/);
  const kit = read("./kit_runner.ts");
  assert.match(kit, /prefetch \? \{ prefetch: kitPrefetch\(worker\) \} : \{\}/);
  assert.match(kit, /Deno\.env\.get\("BENCH_KIT_PREFETCH"\) === "1"/);
});

Deno.test("the README's peer table cites the settings the runners use", () => {
  const readme = read("./README.md");
  const [, table] = readme.split("## Peers and their settings");
  assert.ok(table !== undefined, "README has a 'Peers and their settings' section");
  const n = (x: number) => x.toLocaleString("en-US");
  const batches = [1, 10, 50].map((c) => n(pgBossWorkOptions(c).batchSize)).join(" / ");
  assert.ok(table.includes(`\`batchSize\` ${batches} at c = 1 / 10 / 50`), batches);
  assert.ok(table.includes(`cap ${n(pgBossCapTarget)} jobs/s`));
  assert.ok(table.includes(`\`pollingIntervalSeconds\` ${pgBossPollingIntervalSeconds}`));
  assert.ok(table.includes("`localQueue.size` max(10, c)"));
  assert.ok(table.includes("`prefetch` max(10, c)"));
});

Deno.test("pgBossCapNote: a row that fits in one fetch per loop cannot meet the cap; else checked", () => {
  const fits = pgBossCapNote(30_000, 1, 12_000);
  assert.equal(fits.ok, true);
  assert.equal(
    fits.note,
    "cap 100,000 jobs/s, never reached: the row's 12,000 jobs fit in one fetch of its 1 work() loop(s)",
  );
  for (const c of [1, 10, 50]) assert.equal(pgBossCapNote(1, c, 12_000).ok, true, `c=${c}`);
  // More jobs than one fetch per loop holds: the cap is checked against the figure.
  assert.deepEqual(pgBossCapNote(30_000, 1, 60_000), capCheck(30_000, 100_000));
  assert.equal(pgBossCapNote(30_000, 1, 60_000).ok, false);
});
