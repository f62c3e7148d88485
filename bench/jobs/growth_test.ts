import assert from "node:assert/strict";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import {
  expectedFill,
  filledStatus,
  finishedFillSql,
  growthColumns,
  growthPages,
  growthQueues,
  growthRows,
  renderGrowthTable,
} from "./growth_table.ts";
import { runGrowth } from "./growth_run.ts";

function throwsNaming(fn: () => unknown, text: string): void {
  assert.throws(fn, (error: unknown) => error instanceof Error && error.message.includes(text));
}

function fullFigures(sizes: number[]): Map<string, Record<string, string>> {
  return new Map(
    growthRows(sizes).map((label) => [
      label,
      Object.fromEntries(growthColumns.map((c, i) => [c.key, String(i + 1)])),
    ]),
  );
}

Deno.test("the growth table has a row per size and after its prune, and every column", () => {
  const table = renderGrowthTable([10_000, 1_000_000], fullFigures([10_000, 1_000_000]));
  const lines = table.split("\n");
  assert.deepEqual(lines.length, 2 + 4);
  for (const column of growthColumns) assert.ok(lines[0]!.includes(column.title), column.title);
  for (const page of growthPages) assert.ok(lines[0]!.includes(page.title), page.title);
  assert.ok(lines[0]!.includes("claim + complete jobs/s") && lines[0]!.includes("enqueue jobs/s"));
  assert.deepEqual(lines.slice(2).map((line) => line.split(" | ")[0]), [
    "| 10,000 finished",
    "| 10,000 finished, after retention's prune + vacuum",
    "| 1,000,000 finished",
    "| 1,000,000 finished, after retention's prune + vacuum",
  ]);
  for (const line of lines) assert.deepEqual(line.split(" | ").length, growthColumns.length + 1);
});

Deno.test("a growth table missing a row or a figure is refused, naming it", () => {
  const figures = fullFigures([10_000]);
  figures.delete("10,000 finished, after retention's prune + vacuum");
  throwsNaming(
    () => renderGrowthTable([10_000], figures),
    "no row '10,000 finished, after retention's prune + vacuum'",
  );
  const holed = fullFigures([10_000]);
  delete holed.get("10,000 finished")!.enqueue;
  throwsNaming(() => renderGrowthTable([10_000], holed), "has no 'enqueue jobs/s'");
});

Deno.test("the fill's claimed counts: 18 of 20 succeeded, 1 cancelled, 1 dead, per queue", () => {
  const counts = expectedFill(8_000);
  for (const queue of growthQueues) {
    assert.deepEqual(counts.get(queue), { succeeded: 1_800, cancelled: 100, dead: 100 });
  }
  assert.deepEqual(filledStatus(0), "dead");
  assert.deepEqual(filledStatus(4), "cancelled");
  assert.deepEqual(filledStatus(8), "succeeded");
  assert.throws(() => finishedFillSql(0, 10), RangeError);
  assert.throws(() => finishedFillSql(5, 4), RangeError);
});

Deno.test({
  name: "a small growth run fills what it claims, prunes, and prints every row and column",
  ignore: ignoreWithout("DATABASE_URL"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sizes = [1_013];
    const result = await runGrowth({
      serverUrl: requireUrl("DATABASE_URL"),
      sizes,
      claims: 1_000,
      enqueues: 5,
      samples: 1,
      warmup: 0,
      log: () => {},
    });
    assert.deepEqual(result.filled.get(1_013), expectedFill(1_013));
    const expected = expectedFill(1_013);
    const finishedPrunable = [...expected.values()].reduce(
      (sum, c) => sum + c.succeeded + c.cancelled,
      0,
    );
    // Finished two days ago: succeeded and cancelled past the 24 h default, dead within 7 days.
    assert.deepEqual(result.pruned.get(1_013), finishedPrunable);
    const lines = result.table.split("\n");
    assert.deepEqual(lines.length, 2 + growthRows(sizes).length);
    for (const [i, label] of growthRows(sizes).entries()) {
      const cells = lines[2 + i]!.split(" | ");
      assert.deepEqual(cells[0], `| ${label}`);
      assert.deepEqual(cells.length, growthColumns.length + 1);
    }
    const kept = (line: string) => Number(line.split(" | ")[1]!.replaceAll(",", ""));
    // Before: the fill, the claimed jobs and the enqueued ones. After: the dead, and both rows'.
    assert.deepEqual(kept(lines[2]!), 1_013 + 1_000 + 5);
    const dead = [...expected.values()].reduce((sum, c) => sum + c.dead, 0);
    assert.deepEqual(kept(lines[3]!), dead + 2 * (1_000 + 5));
  },
});
