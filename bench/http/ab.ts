/**
 * A/B of kit's schema route between checkouts (`git archive <commit> | tar -x -C <dir>`), the
 * checkouts taking turns in every round, medians printed at the end:
 *
 * `deno run -A bench/http/ab.ts <inproc|deno|node> <rounds> <checkout>...`
 *
 * - `inproc`: `bench/http/kit_loop.ts 10000` in each checkout (µs per request; copied into a
 *   checkout that lacks it).
 * - `deno`: `bench/http/deno_server.ts kit`, loaded with `wrk -t1 -c32` (2 s warm-up, then
 *   `BENCH_SECONDS`, default 6), the schema route's request with a real HS256 token.
 * - `node`: the checkout's `bench/http/kit_node.ts` bundled (`deno bundle --platform node`), then
 *   loaded the same way.
 *
 * Server rows print req/s and the server's CPU time per request (user + system, from
 * `/proc/<pid>/stat`), which the neighbours of a shared machine disturb less than req/s.
 */
import { existsSync } from "node:fs";
import { benchToken, writeWrkScript } from "./schema_request.ts";

const [mode, roundsText, ...checkouts] = Deno.args;
if (!["inproc", "deno", "node"].includes(mode ?? "") || checkouts.length === 0) {
  console.log("usage: ab.ts <inproc|deno|node> <rounds> <checkout>...");
  Deno.exit(2);
}
const rounds = Number(roundsText ?? 3);
const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 6);
const decoder = new TextDecoder();

async function output(cmd: string, args: string[], cwd?: string): Promise<string> {
  const o = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "null" }).output();
  return decoder.decode(o.stdout);
}

const token = await benchToken();
const script = await writeWrkScript(token);

const bundles = new Map<string, string>();
if (mode === "node") {
  for (const checkout of checkouts) {
    const bundle = `${await Deno.makeTempDir()}/kit_node.mjs`;
    await output(Deno.execPath(), [
      "bundle",
      "--platform",
      "node",
      "-o",
      bundle,
      "bench/http/kit_node.ts",
    ], checkout);
    bundles.set(checkout, bundle);
  }
}
if (mode === "inproc") {
  for (const checkout of checkouts) {
    const loop = `${checkout}/bench/http/kit_loop.ts`;
    if (!existsSync(loop)) await Deno.copyFile(new URL("./kit_loop.ts", import.meta.url), loop);
  }
}

function cpuSeconds(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
}

async function serve(checkout: string): Promise<{ rps: number; cpu: number }> {
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const child = mode === "deno"
    ? new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "bench/http/deno_server.ts", "kit", String(port)],
      cwd: checkout,
      stdout: "piped",
      stderr: "null",
    }).spawn()
    : new Deno.Command("node", {
      args: [bundles.get(checkout)!, String(port)],
      env: { NODE_ENV: "production" },
      stdout: "piped",
      stderr: "null",
    }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  for (let seen = ""; !seen.includes("ready");) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${checkout}: the server exited before listening`);
    seen += value;
  }
  const url = `http://127.0.0.1:${port}/calendars/cal-1/clearances?notify=yes`;
  const wrk = (d: number) => output("wrk", ["-t1", "-c32", `-d${d}s`, "-s", script, url]);
  try {
    await wrk(2);
    const before = cpuSeconds(child.pid);
    const out = await wrk(seconds);
    const used = cpuSeconds(child.pid) - before;
    if (/Non-2xx/.test(out)) throw new Error(`${checkout}: non-2xx answers`);
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
      cpu: (used * 1e6) / requests,
    };
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reader.cancel().catch(() => {});
  }
}

const results = new Map<string, { a: number[]; b: number[] }>();
for (let round = 1; round <= rounds; round++) {
  for (const checkout of checkouts) {
    const entry = results.get(checkout) ?? { a: [], b: [] };
    results.set(checkout, entry);
    if (mode === "inproc") {
      const out = await output(
        Deno.execPath(),
        ["run", "-A", "bench/http/kit_loop.ts", "10000"],
        checkout,
      );
      entry.a.push(Number.parseFloat(out));
      console.log(`round ${round} ${checkout}: ${out.trim()}`);
    } else {
      const { rps, cpu } = await serve(checkout);
      entry.a.push(rps);
      entry.b.push(cpu);
      console.log(
        `round ${round} ${checkout}: ${rps.toFixed(0)} req/s, ${cpu.toFixed(1)} CPU µs per request`,
      );
    }
  }
}
await Deno.remove(script);

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
console.log(`\nmedians of ${rounds} rounds (${mode}):`);
for (const [checkout, { a, b }] of results) {
  console.log(
    mode === "inproc"
      ? `${checkout}: ${median(a).toFixed(1)} µs per request`
      : `${checkout}: ${median(a).toFixed(0)} req/s, ${median(b).toFixed(1)} CPU µs per request`,
  );
}
