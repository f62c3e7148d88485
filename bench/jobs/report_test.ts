import assert from "node:assert/strict";
import {
  closePairs,
  type Figure,
  ratioOf,
  ratioRange,
  renderTable,
  summarize,
  verdict,
} from "./report.ts";

const m = "process no-op jobs, concurrency 1";

Deno.test("renderTable: a limit that is the reference adds no column", () => {
  const figures: Figure[] = [
    { measure: m, who: "limit", unit: "jobs/s", value: 1000, limit: true },
    { measure: m, who: "kit", unit: "jobs/s", value: 800 },
  ];
  assert.equal(
    renderTable("T", figures),
    [
      "\nT",
      "",
      "| measure | implementation | result | vs reference |",
      "| --- | --- | ---: | ---: |",
      `| ${m} | limit **(reference)** | 1,000 jobs/s | 1.00x (reference) |`,
      `| ${m} | kit | 800 jobs/s | 0.80x |`,
    ].join("\n"),
  );
});

Deno.test("renderTable: a limit that is not the reference gets a 'vs limit' column", () => {
  const figures: Figure[] = [
    { measure: m, who: "peer", unit: "jobs/s", value: 500 },
    { measure: m, who: "kit", unit: "jobs/s", value: 1000 },
    { measure: m, who: "limit", unit: "jobs/s", value: 4000, limit: true },
    { measure: "latency p50", who: "peer", unit: "ms", value: 2 },
  ];
  const lines = renderTable("T", figures).split("\n");
  assert.equal(lines[3], "| measure | implementation | result | vs reference | vs limit |");
  assert.equal(lines[6], `| ${m} | kit | 1,000 jobs/s | 2.00x | 0.25x |`);
  assert.equal(lines[7], `| ${m} | limit | 4,000 jobs/s | 8.00x | 1.00x (limit) |`);
  assert.equal(
    lines[8],
    "| latency p50 | peer **(reference)** | 2.00 ms | 1.00x (reference) | n/a |",
  );
  assert.equal(ratioOf(figures, m, "kit", "limit"), 0.25);
});

Deno.test("summarize: the median and the spread of the rounds", () => {
  assert.deepEqual(summarize([5, 1, 3]), { median: 3, spread: { rounds: 3, min: 1, max: 5 } });
  assert.deepEqual(summarize([2]), { median: 2, spread: { rounds: 1, min: 2, max: 2 } });
  assert.throws(() => summarize([]), RangeError);
});

Deno.test("renderTable: a median of several rounds is printed with its spread", () => {
  const lines = renderTable("T", [
    {
      measure: m,
      who: "kit",
      unit: "jobs/s",
      value: 1000,
      spread: { rounds: 5, min: 900, max: 1200 },
    },
    { measure: m, who: "peer", unit: "jobs/s", value: 500, note: "cap 100,000 jobs/s" },
  ]).split("\n");
  assert.equal(
    lines[5],
    `| ${m} | kit **(reference)** | 1,000 jobs/s (median of 5 rounds, 900-1,200) | 1.00x (reference) |`,
  );
  assert.equal(lines[6], `| ${m} | peer | 500 jobs/s (cap 100,000 jobs/s) | 0.50x |`);
});

Deno.test("closePairs: pairs closer than 1.2x either way, not the others", () => {
  const figures: Figure[] = [
    { measure: m, who: "kit", unit: "jobs/s", value: 1000 },
    { measure: m, who: "a", unit: "jobs/s", value: 1100 },
    { measure: m, who: "b", unit: "jobs/s", value: 850 },
    { measure: m, who: "c", unit: "jobs/s", value: 1250 },
    { measure: m, who: "d", unit: "jobs/s", value: "failed: x" },
  ];
  const pairs = [["kit", "a"], ["kit", "b"], ["kit", "c"], ["kit", "d"]] as const;
  assert.deepEqual(closePairs(figures, m, pairs), [["kit", "a"], ["kit", "b"]]);
});

Deno.test("verdict: met, NOT met, or within run-to-run spread, from the rows' spreads", () => {
  const figures: Figure[] = [
    {
      measure: m,
      who: "kit",
      unit: "jobs/s",
      value: 1030,
      spread: { rounds: 5, min: 950, max: 1100 },
    },
    {
      measure: m,
      who: "peer",
      unit: "jobs/s",
      value: 1000,
      spread: { rounds: 5, min: 980, max: 1050 },
    },
  ];
  const range = ratioRange(figures, m, "kit", "peer")!;
  assert.equal(range.median, 1.03);
  assert.equal(range.low, 950 / 1050);
  assert.equal(range.high, 1100 / 980);
  assert.equal(verdict(range, 1.0), "within run-to-run spread");
  assert.equal(verdict(range, 0.9), "met");
  assert.equal(verdict(range, 1.2), "NOT met");
  // A latency: lower is better.
  assert.equal(verdict({ low: 0.8, median: 0.9, high: 0.95 }, 1, true), "met");
  assert.equal(verdict({ low: 1.1, median: 1.2, high: 1.3 }, 1, true), "NOT met");
  assert.equal(verdict({ low: 0.9, median: 1.02, high: 1.1 }, 1, true), "within run-to-run spread");
  assert.equal(ratioRange(figures, m, "kit", "nobody"), undefined);
  // A peer's round that completed nothing gives no ratio (not an infinite one).
  const stalled: Figure = {
    measure: m,
    who: "stalled",
    unit: "jobs/s",
    value: 0,
    spread: { rounds: 3, min: 0, max: 699 },
  };
  assert.equal(ratioRange([...figures, stalled], m, "kit", "stalled"), undefined);
});
