/**
 * Where the test suite's CPU goes: runs each test file alone, one after another, and prints the
 * CPU-seconds the whole machine was busy meanwhile (the test, the processes it starts,
 * PostgreSQL's backends, a browser) beside the wall time, the most CPU first. `deno task test` is
 * bound by the CPU on a 2-core machine, so the files at the top are the ones whose cut shortens it.
 * Linux only (it reads `/proc/stat`); run it on an otherwise quiet machine.
 *
 * ```sh
 * deno run -A tools/test_cpu.ts [--top N] PATH...
 * ```
 *
 * Paths are test files, or folders searched for `*_test.ts` and `*.spec.ts` (not under
 * `node_modules`, `testdata` or `cli/templates`). Each file runs as `deno test -A --quiet
 * --no-check <file>` from the repository's root, with the environment of this process.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** The busy and idle time of all CPUs, in clock ticks (USER_HZ, 100 a second on Linux). */
export interface CpuTicks {
  readonly busy: number;
  readonly idle: number;
}

/** One file's run: the CPU-seconds the machine was busy, the wall seconds, and its exit code. */
export interface FileCpu {
  readonly file: string;
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
  readonly code: number;
}

/**
 * Reads the `cpu` line of `/proc/stat`: busy is user, nice, system, irq, softirq and steal; idle
 * is idle and iowait.
 *
 * @throws {Error} When the text has no `cpu` line.
 */
export function cpuTicks(procStat: string): CpuTicks {
  const line = procStat.split("\n").find((l) => l.startsWith("cpu "));
  if (line === undefined) throw new Error("/proc/stat has no 'cpu' line");
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/)
    .slice(1).map(Number);
  const busy = [user, nice, system, irq, softirq, steal].reduce((sum, n) => sum! + (n ?? 0), 0)!;
  return { busy, idle: (idle ?? 0) + (iowait ?? 0) };
}

/** The table printed: the most CPU first, with the total of every file's CPU and wall. */
export function renderCpuTable(rows: readonly FileCpu[], top = rows.length): string {
  const sorted = [...rows].sort((a, b) => b.cpuSeconds - a.cpuSeconds);
  const lines = sorted.slice(0, top).map((row) =>
    `${row.cpuSeconds.toFixed(1).padStart(7)} ${row.wallSeconds.toFixed(1).padStart(7)}  ${
      row.code === 0 ? "" : `(exit ${row.code}) `
    }${row.file}`
  );
  const cpu = rows.reduce((sum, row) => sum + row.cpuSeconds, 0);
  const wall = rows.reduce((sum, row) => sum + row.wallSeconds, 0);
  return [
    "  CPU-s  wall-s  file",
    ...lines,
    `${cpu.toFixed(1).padStart(7)} ${wall.toFixed(1).padStart(7)}  total of ${rows.length} files`,
  ].join("\n");
}

const testFile = /(_test|\.spec)\.tsx?$/;
const skipped = new Set(["node_modules", "testdata", ".git", ".kit"]);

async function testFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const found: string[] = [];
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name) && !child.includes("cli/templates")) {
        found.push(...await testFiles(child));
      }
    } else if (testFile.test(entry.name)) found.push(child);
  }
  return found.sort();
}

async function measure(file: string): Promise<FileCpu> {
  const before = cpuTicks(await readFile("/proc/stat", "utf8"));
  const started = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--quiet", "--no-check", file],
    stdout: "null",
    stderr: "null",
  }).output();
  const after = cpuTicks(await readFile("/proc/stat", "utf8"));
  return {
    file,
    cpuSeconds: (after.busy - before.busy) / 100,
    wallSeconds: (performance.now() - started) / 1000,
    code,
  };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { top: { type: "string" } },
    allowPositionals: true,
  });
  const top = values.top === undefined ? undefined : Number(values.top);
  if (positionals.length === 0 || (top !== undefined && !(top > 0))) {
    console.error("usage: deno run -A tools/test_cpu.ts [--top N] PATH...");
    Deno.exit(2);
  }
  for (const path of positionals) {
    if (!existsSync(path)) {
      console.error(`tools/test_cpu: '${path}' does not exist`);
      Deno.exit(2);
    }
  }
  const rows: FileCpu[] = [];
  for (const path of positionals) {
    for (const file of await testFiles(path)) {
      const row = await measure(file);
      console.error(`${row.cpuSeconds.toFixed(1)} CPU-s ${file}`);
      rows.push(row);
    }
  }
  console.log(renderCpuTable(rows, top));
}
