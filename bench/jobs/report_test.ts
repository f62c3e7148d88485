import assert from "node:assert/strict";
import { type Figure, ratioOf, renderTable } from "./report.ts";

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
