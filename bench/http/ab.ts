/**
 * A/B of kit's schema route between checkouts (`git archive <commit> | tar -x -C <dir>`), the
 * checkouts taking turns in every round, medians printed at the end:
 *
 * `deno run -A bench/http/ab.ts <inproc|deno|node|public> <rounds> <checkout>...`
 *
 * - `inproc`: `bench/http/kit_loop.ts 10000` in each checkout (µs per request; copied into a
 *   checkout that lacks it).
 * - `deno`: `bench/http/deno_server.ts kit`, loaded with `wrk -t1 -c32` (2 s warm-up, then
 *   `BENCH_SECONDS`, default 6), the schema route's request with a real HS256 token.
 * - `node`: the checkout's `bench/http/kit_node.ts` bundled (`deno bundle --platform node`), then
 *   loaded the same way.
 * - `public`: `GET /hello` (kit's `Public` route) of `bench/http/deno_server.ts kit`, and in every
 *   round bare Hono's `GET /hello` (`deno_server.ts hono` of the first checkout) before the
 *   checkouts: each checkout's ratio to Hono in its round (req/s, and Hono's CPU per request over
 *   the checkout's), with the least and most of those ratios.
 *
 * Server rows print req/s and the server's CPU time per request (user + system, from
 * `/proc/<pid>/stat`), which the neighbours of a shared machine disturb less than req/s.
 */
import { existsSync } from "node:fs";
import { benchToken, writeWrkScript } from "./schema_request.ts";

const [mode, roundsText, ...checkouts] = Deno.args;
if (!["inproc", "deno", "node", "public"].includes(mode ?? "") || checkouts.length === 0) {
  console.log("usage: ab.ts <inproc|deno|node|public> <rounds> <checkout>...");
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

async function serve(
  checkout: string,
  server = "kit",
): Promise<{ rps: number; cpu: number }> {
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const child = mode !== "node"
    ? new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "bench/http/deno_server.ts", server, String(port)],
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
  const wrk = mode === "public"
    ? (d: number) => output("wrk", ["-t1", "-c32", `-d${d}s`, `http://127.0.0.1:${port}/hello`])
    : (d: number) =>
      output("wrk", [
        "-t1",
        "-c32",
        `-d${d}s`,
        "-s",
        script,
        `http://127.0.0.1:${port}/calendars/cal-1/clearances?notify=yes`,
      ]);
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
/** Per checkout, in `public` mode: its req/s over Hono's, and Hono's CPU per request over its. */
const ratios = new Map<string, { rps: number[]; cpu: number[] }>();
for (let round = 1; round <= rounds; round++) {
  const hono = mode === "public" ? await serve(checkouts[0]!, "hono") : undefined;
  if (hono !== undefined) {
    console.log(
      `round ${round} bare Hono: ${hono.rps.toFixed(0)} req/s, ${
        hono.cpu.toFixed(1)
      } CPU µs per request`,
    );
  }
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
      const against = hono === undefined
        ? ""
        : `; ${(rps / hono.rps).toFixed(2)}x Hono's req/s, ${
          (hono.cpu / cpu).toFixed(2)
        }x in CPU per request`;
      if (hono !== undefined) {
        const entry = ratios.get(checkout) ?? { rps: [], cpu: [] };
        ratios.set(checkout, entry);
        entry.rps.push(rps / hono.rps);
        entry.cpu.push(hono.cpu / cpu);
      }
      console.log(
        `round ${round} ${checkout}: ${rps.toFixed(0)} req/s, ${
          cpu.toFixed(1)
        } CPU µs per request${against}`,
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
const spread = (values: number[]) =>
  `${median(values).toFixed(2)}x (${Math.min(...values).toFixed(2)}-${
    Math.max(...values).toFixed(2)
  }x)`;
for (const [checkout, { rps, cpu }] of ratios) {
  console.log(
    `${checkout} / bare Hono: ${spread(rps)} in req/s, ${spread(cpu)} in CPU per request`,
  );
}
