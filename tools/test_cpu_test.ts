import assert from "node:assert/strict";
import { cpuTicks, renderCpuTable } from "./test_cpu.ts";

Deno.test("cpuTicks: busy is user, nice, system, irq, softirq and steal; idle is idle and iowait", () => {
  const procStat = [
    "cpu  100 2 30 5000 7 1 4 3 0 0",
    "cpu0 50 1 15 2500 3 0 2 1 0 0",
    "intr 12345",
  ].join("\n");
  assert.deepEqual(cpuTicks(procStat), { busy: 100 + 2 + 30 + 1 + 4 + 3, idle: 5000 + 7 });
});

Deno.test("cpuTicks refuses a text without the cpu line, naming it", () => {
  assert.throws(() => cpuTicks("cpu0 1 2 3 4\n"), /no 'cpu' line/);
});

Deno.test("renderCpuTable: the most CPU first, a failed file marked, the top N and the total of all", () => {
  const table = renderCpuTable([
    { file: "a_test.ts", cpuSeconds: 1.25, wallSeconds: 2, code: 0 },
    { file: "b_test.ts", cpuSeconds: 12, wallSeconds: 30.5, code: 1 },
    { file: "c_test.ts", cpuSeconds: 3, wallSeconds: 3, code: 0 },
  ], 2);
  assert.deepEqual(table.split("\n"), [
    "  CPU-s  wall-s  file",
    "   12.0    30.5  (exit 1) b_test.ts",
    "    3.0     3.0  c_test.ts",
    "   16.3    35.5  total of 3 files",
  ]);
});
