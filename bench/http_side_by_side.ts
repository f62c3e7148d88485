/**
 * HTTP side by side, over loopback: every server in its own process, loaded by `wrk` (Debian's
 * package) from another process, a warm-up round then a measured round, one row after another.
 * The limit rows: `Deno.serve` and `node:http` answering a constant JSON body (the runtimes'
 * floor), and the schema route's request read and answered with a constant on `Deno.serve`,
 * `node:http`, @hono/node-server and `Bun.serve`. Rows: bare Hono and kit's `Public` route (GET
 * /hello); the spec's schema route (POST with params, query, a header and a JSON body validated,
 * an HS256 JWT verified with its issuer and audience, a permission checked, a use case called,
 * the answer serialized) in kit, @hono/zod-openapi, NestJS (Express and Fastify adapters),
 * Fastify, kit on Node 20 (@hono/node-server), Elysia on Bun (its `t` schemas and @elysiajs/jwt,
 * compiled to a binary as its docs recommend) and kit on Bun (`Bun.serve`), each sent the tokens
 * of 10,000 distinct callers round-robin, so that every server verifies every token (kit with its
 * verified-token cache off); one more kit row sends one caller's token again and again (kit's
 * cache answers it: labelled so). Every peer is configured as its documentation recommends for
 * production (bench/http/README.md cites each). Before a schema row is loaded, its server must
 * answer the request with a token 202 and the same body as every other schema row, and 401
 * without one (`bench/http/same_answer.ts`). Node peers, Elysia and Bun itself (the npm `bun`
 * package) run from bench/peers/http (installed with `npm ci` when missing). Prints one
 * markdown table with req/s, p99 and the ratio to the reference row.
 *
 * Then latency under load: right after its closed-loop round, each row's server is sent its
 * request by an open-loop generator (`bench/http/open_loop.ts`, on Node when it bundles, else on
 * Deno) at a fixed rate of half the req/s `wrk` just measured for it, 32 connections, a 1 s
 * warm-up then `BENCH_LATENCY_SECONDS` (default 5); each request's latency is counted from its
 * scheduled send time (no coordinated omission). A second table prints p50, p99 and max at that
 * rate, the achieved rate and the errors. `wrk`'s own p99 in the first table is closed loop: the
 * latency of a server kept saturated, not the latency a client sees below the peak.
 *
 * `BENCH_SECONDS` (default 5) sets the measured round; `BENCH_ROUNDS` (default 1) repeats the
 * whole table, interleaved (each round starting one row later), and reports each row's median
 * round (its latency row is that round's), with the least and most req/s of its rounds. A kit /
 * peer pair of the targets closer than 1.2x in req/s gets interleaved rounds of its two rows until
 * it has 5 (issue #33); the targets' verdicts read both rows' spreads. `BENCH_LATENCY=0` skips the
 * latency rows.
 * `BENCH_ROWS` (starts of row names separated by `|`, e.g. `kit|Fastify|Deno.serve`) runs only
 * the rows whose name starts with one of them.
 */
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { audience, body, issuer, secret } from "./http/shared.ts";
import { benchToken, writePoolWrkScript, writeWrkScript } from "./http/schema_request.ts";
import type { OpenLoopResult } from "./http/open_loop.ts";
import { closeRounds, closeRowPairs, medianRound, type RowPair } from "./http/rounds.ts";
import { verdict } from "./jobs/report.ts";
import { checkSchemaAnswers } from "./http/same_answer.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
const rounds = Number(Deno.env.get("BENCH_ROUNDS") ?? 1);
const connections = 32;
const latencyRows = Deno.env.get("BENCH_LATENCY") !== "0";
const latencySeconds = Number(Deno.env.get("BENCH_LATENCY_SECONDS") ?? 5);

async function run(
  cmd: string,
  args: string[],
  cwd?: string,
): Promise<{ ok: boolean; out: string }> {
  try {
    const o = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
    return { ok: o.success, out: new TextDecoder().decode(o.stdout) };
  } catch {
    return { ok: false, out: "" };
  }
}

if (!(await run("wrk", ["--version"])).out && !(await run("which", ["wrk"])).ok) {
  console.log("skipped: the HTTP benchmark needs wrk (apt-get install wrk)");
  Deno.exit(0);
}
const peers = here("./peers/http");
let nodePeers = existsSync(`${peers}/node_modules`);
if (!nodePeers) nodePeers = (await run("npm", ["ci", "--no-audit", "--no-fund"], peers)).ok;
if (!nodePeers) console.log("skipped: the Node rows (npm ci in bench/peers/http failed)");

const bundleDir = await Deno.makeTempDir({ prefix: "kit-bench-node-" });
/** Bundles a module of this folder for Node into the bundle directory: whether it could. */
async function bundleForNode(entry: string, out: string): Promise<boolean> {
  return (await run(Deno.execPath(), [
    "bundle",
    "--config",
    here("../deno.json"),
    "--platform",
    "node",
    "-o",
    out,
    here(entry),
  ])).ok;
}
// Bun from the npm `bun` package of bench/peers/http; Elysia compiled to one binary with the
// command its docs recommend for production (https://elysiajs.com/patterns/deploy).
const bun = `${peers}/node_modules/.bin/bun`;
const bunVersion = nodePeers ? (await run(bun, ["--version"])).out.trim() : "";
if (!bunVersion) console.log("skipped: the Bun rows (no bun in bench/peers/http/node_modules)");
const elysiaBinary = `${bundleDir}/elysia_server`;
const elysiaBuilt = bunVersion !== "" && (await run(bun, [
  "build",
  "--compile",
  "--minify-whitespace",
  "--minify-syntax",
  "--target",
  "bun",
  "--outfile",
  elysiaBinary,
  "elysia_server.mjs",
], peers)).ok;
if (bunVersion && !elysiaBuilt) console.log("skipped: Elysia on Bun (bun build --compile failed)");
const bunBundle = `${bundleDir}/kit_bun.mjs`;
const bunBundled = bunVersion !== "" && await bundleForNode("./http/kit_bun.ts", bunBundle);
if (bunVersion && !bunBundled) console.log("skipped: kit on Bun (deno bundle failed)");
const bundle = `${bundleDir}/kit_node.mjs`;
const bundled = await bundleForNode("./http/kit_node.ts", bundle);
if (!bundled) console.log("skipped: kit on Node (deno bundle failed)");
// The floor of the POST through @hono/node-server, as kit on Node is served (in an
// AsyncLocalStorage, as kit's pipeline runs).
const floorBundle = `${bundleDir}/floor.mjs`;
const floorBundled = await bundleForNode("./http/floor.ts", floorBundle);
// The open-loop generator runs on Node (its sockets cost less there than through Deno's node:net),
// or on Deno when the bundle fails.
const openLoopBundle = `${bundleDir}/open_loop.mjs`;
const openLoop = !latencyRows
  ? undefined
  : (await bundleForNode("./http/open_loop.ts", openLoopBundle)) &&
      (await run("node", ["--version"])).ok
  ? { command: "node", args: [openLoopBundle], runtime: "Node" }
  : { command: Deno.execPath(), args: ["run", "-A", here("./http/open_loop.ts")], runtime: "Deno" };

const oneCallerToken = await benchToken();
const oneCaller = await writeWrkScript(oneCallerToken);
const pool = await writePoolWrkScript();

interface Row {
  readonly name: string;
  /** GET /hello, or the schema route with the pool of callers or one caller's token. */
  readonly path: "get" | "schema" | "schema-one-caller";
  readonly command: string;
  readonly args: (port: number) => string[];
  readonly cwd?: string;
  readonly available: boolean;
}

const deno = (which: string) => (port: number) => [
  "run",
  "-A",
  here("./http/deno_server.ts"),
  which,
  String(port),
];
const node = (file: string, ...extra: string[]) => (port: number) => [
  file,
  ...extra,
  String(port),
  secret,
  issuer,
  audience,
];
const names = {
  reference: "Deno.serve, constant JSON (limit, reference)",
  hono: "bare Hono, GET /hello",
  kitPublic: "kit, GET /hello (Public)",
  floor:
    "Deno.serve, the schema route's request read (header, JSON body), constant 202 (limit of the POST)",
  nodeFloor:
    "node:http, the schema route's request read (header, JSON body), constant 202 (limit of the POST on Node 20)",
  honoNodeFloor:
    "@hono/node-server, the schema route's request read, constant 202 in an AsyncLocalStorage (limit of the POST as kit on Node is served)",
  bunFloor:
    "Bun.serve, the schema route's request read (header, JSON body), constant 202 (limit of the POST on Bun)",
  kit: "kit, schema route (verified-token cache off)",
  zodOpenApi: "@hono/zod-openapi, schema route",
  fastify: "Fastify (Node 20), schema route",
  nestExpress: "NestJS + Express (Node 20), schema route",
  kitNode: "kit on Node 20 (@hono/node-server), schema route (verified-token cache off)",
  elysia: "Elysia on Bun (compiled binary), schema route",
  kitBun: "kit on Bun (Bun.serve), schema route (verified-token cache off)",
  kitCached: "kit, schema route, one caller's token repeated (verified-token cache hits)",
} as const;
const rows: Row[] = [
  {
    name: names.reference,
    path: "get",
    command: Deno.execPath(),
    args: deno("reference"),
    available: true,
  },
  {
    name: "node:http, constant JSON (limit on Node 20)",
    path: "get",
    command: "node",
    args: (port) => ["node_floor.mjs", String(port)],
    cwd: peers,
    available: true,
  },
  {
    name: names.floor,
    path: "schema",
    command: Deno.execPath(),
    args: (port) => ["run", "-A", here("./http/floor.ts"), "als", String(port)],
    available: true,
  },
  {
    name: names.nodeFloor,
    path: "schema",
    command: "node",
    args: (port) => ["node_floor.mjs", String(port)],
    cwd: peers,
    available: true,
  },
  {
    name: names.honoNodeFloor,
    path: "schema",
    command: "node",
    args: (port) => [floorBundle, "als", String(port)],
    available: floorBundled,
  },
  {
    name: names.bunFloor,
    path: "schema",
    command: bun,
    args: (port) => [floorBundle, String(port)],
    available: floorBundled && bunVersion !== "",
  },
  {
    name: names.hono,
    path: "get",
    command: Deno.execPath(),
    args: deno("hono"),
    available: true,
  },
  {
    name: names.kitPublic,
    path: "get",
    command: Deno.execPath(),
    args: deno("kit"),
    available: true,
  },
  {
    name: names.kit,
    path: "schema",
    command: Deno.execPath(),
    args: deno("kit-no-token-cache"),
    available: true,
  },
  {
    name: names.zodOpenApi,
    path: "schema",
    command: Deno.execPath(),
    args: deno("zod-openapi"),
    available: true,
  },
  {
    name: names.fastify,
    path: "schema",
    command: "node",
    args: node("fastify_server.mjs"),
    cwd: peers,
    available: nodePeers,
  },
  {
    name: names.nestExpress,
    path: "schema",
    command: "node",
    args: node("nest_server.mjs", "express"),
    cwd: peers,
    available: nodePeers,
  },
  {
    name: "NestJS + Fastify (Node 20), schema route",
    path: "schema",
    command: "node",
    args: node("nest_server.mjs", "fastify"),
    cwd: peers,
    available: nodePeers,
  },
  {
    name: names.kitNode,
    path: "schema",
    command: "node",
    args: (port) => [bundle, String(port)],
    available: bundled,
  },
  {
    name: names.elysia,
    path: "schema",
    command: elysiaBinary,
    args: (port) => [String(port), secret, issuer, audience],
    cwd: peers,
    available: elysiaBuilt,
  },
  {
    name: names.kitBun,
    path: "schema",
    command: bun,
    args: (port) => [bunBundle, String(port)],
    available: bunBundled,
  },
  {
    name: names.kitCached,
    path: "schema-one-caller",
    command: Deno.execPath(),
    args: deno("kit"),
    available: true,
  },
];

interface Latency {
  /** The fixed rate sent, req/s: half the row's closed-loop req/s. */
  readonly rate: number;
  readonly achieved: number;
  readonly errors: number;
  /** ms, from each request's scheduled send time. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The generator's own lateness (p99 of `generatorLag`), ms. */
  readonly generatorLagP99: number;
}

interface Result {
  readonly rps: number;
  readonly p99: string;
  /** The server process's CPU (user + system, every thread) per request of the measured round, µs. */
  readonly cpuPerRequest: number;
  readonly latency?: Latency;
}

/** The open-loop generator's arguments for `row`'s request: the same request `wrk` sends. */
function openLoopArgs(row: Row, rate: number, url: string): string[] {
  const schema = [
    "--method",
    "POST",
    "--header",
    "content-type: application/json",
    "--header",
    "x-request-source: bench",
    "--body",
    body,
  ];
  return [
    "--rate",
    String(rate),
    "--seconds",
    String(latencySeconds),
    "--warmup",
    "1",
    "--connections",
    String(connections),
    ...(row.path === "schema"
      ? [...schema, "--tokens", pool.tokens]
      : row.path === "schema-one-caller"
      ? [...schema, "--header", `authorization: Bearer ${oneCallerToken}`]
      : []),
    url,
  ];
}

async function latencyAtHalfPeak(row: Row, rps: number, url: string): Promise<Latency> {
  const rate = Math.max(1, Math.round(rps / 2));
  const generator = openLoop!;
  const { ok, out } = await run(generator.command, [
    ...generator.args,
    ...openLoopArgs(row, rate, url),
  ]);
  if (!ok) throw new Error(`${row.name}: the open-loop generator failed`);
  const result = JSON.parse(out.trim().split("\n").at(-1)!) as OpenLoopResult;
  return {
    rate,
    achieved: result.achieved,
    errors: result.errors,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    generatorLagP99: result.generatorLag.p99,
  };
}

/** A process's CPU time so far (user + system of all its threads), from `/proc/<pid>/stat`. */
function cpuSeconds(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in ticks of 10 ms
}

async function load(row: Row): Promise<Result> {
  const port = 18_000 + Math.floor(Math.random() * 2000);
  const child = new Deno.Command(row.command, {
    args: row.args(port),
    cwd: row.cwd,
    env: { NODE_ENV: "production" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${row.name} exited before listening`);
    seen += value;
  }
  const url = row.path === "get"
    ? `http://127.0.0.1:${port}/hello`
    : `http://127.0.0.1:${port}/calendars/cal-1/clearances?notify=yes`;
  const args = (d: number) => [
    "-t1",
    `-c${connections}`,
    `-d${d}s`,
    "--latency",
    ...(row.path === "schema"
      ? ["-s", pool.script]
      : row.path === "schema-one-caller"
      ? ["-s", oneCaller]
      : []),
    url,
  ];
  try {
    if (row.path !== "get") await checkSchemaAnswers(row.name, url, oneCallerToken);
    await run("wrk", args(2));
    const cpuBefore = cpuSeconds(child.pid);
    const out = (await run("wrk", args(seconds))).out;
    const cpu = cpuSeconds(child.pid) - cpuBefore;
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    if (non2xx > 0) throw new Error(`${row.name} answered ${non2xx} non-2xx responses`);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    return {
      rps,
      p99: /\n\s+99%\s+(\S+)/.exec(out)?.[1] ?? "?",
      cpuPerRequest: requests > 0 ? (cpu * 1e6) / requests : NaN,
      latency: openLoop && rps > 0 ? await latencyAtHalfPeak(row, rps, url) : undefined,
    };
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reader.cancel().catch(() => {});
  }
}

// Every round runs every row, starting one row later than the round before; each row reports its
// median round (this machine's throughput varies up to 2x between identical rounds).
const results = new Map<string, Result[]>();
const only = Deno.env.get("BENCH_ROWS")?.split("|").map((part) => part.trim()).filter(Boolean);
const available = rows.filter((r) =>
  r.available && (!only || only.some((start) => r.name.startsWith(start)))
);
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < available.length; i++) {
    const row = available[(i + round) % available.length]!;
    const result = await load(row);
    results.set(row.name, [...(results.get(row.name) ?? []), result]);
  }
}
// The pairs of the targets: any closer than 1.2x gets rounds of its two rows until it has 5.
const targetPairs: readonly RowPair[] = [
  [names.kitPublic, names.hono],
  [names.kit, names.zodOpenApi],
  [names.kit, names.fastify],
  [names.kit, names.nestExpress],
  [names.kitNode, names.fastify],
  [names.kitBun, names.elysia],
];
const medianRps = (name: string) => {
  const runs = results.get(name);
  return runs === undefined ? undefined : medianRound(runs).median.rps;
};
const close = closeRowPairs(medianRps, targetPairs);
const closeNames = new Set(close.flat());
const again = available.filter((r) => closeNames.has(r.name));
for (let round = rounds; round < closeRounds && again.length > 1; round++) {
  for (let i = 0; i < again.length; i++) {
    const row = again[(i + round) % again.length]!;
    results.set(row.name, [...(results.get(row.name) ?? []), await load(row)]);
  }
}
const medians = new Map<string, Result>();
const spreads = new Map<string, { min: number; max: number; rounds: number }>();
for (const [name, runs] of results) {
  const { median, ...spread } = medianRound(runs);
  medians.set(name, median);
  spreads.set(name, spread);
}
await Deno.remove(oneCaller);
await pool.remove();
await Deno.remove(bundleDir, { recursive: true });

const rps = (name: string) => medians.get(name)?.rps ?? NaN;
const reference = rps(names.reference);
console.log(
  `\nHTTP over loopback (wrk -t1 -c${connections}, ${seconds}s measured after a 2s warm-up, median of ${rounds} interleaved rounds; server and load share ${navigator.hardwareConcurrency} cores; Deno ${Deno.version.deno}, ${
    (await run("node", ["--version"])).out.trim()
  }${bunVersion ? `, Bun ${bunVersion}` : ""})`,
);
console.log(
  "| row | req/s | p99 (wrk, closed loop) | server CPU per request | ratio to reference |\n| --- | ---: | ---: | ---: | ---: |",
);
for (const row of rows) {
  const r = medians.get(row.name);
  if (!r) {
    console.log(`| ${row.name} | skipped | | | |`);
    continue;
  }
  const spread = spreads.get(row.name)!;
  const n = (value: number) => Math.round(value).toLocaleString("en-US");
  console.log(
    `| ${row.name} | ${n(r.rps)}${
      spread.rounds > 1 ? ` (${spread.rounds} rounds: ${n(spread.min)}-${n(spread.max)})` : ""
    } | ${r.p99} | ${r.cpuPerRequest.toFixed(1)} µs | ${(r.rps / reference).toFixed(2)}x |`,
  );
}
console.log(
  "p99 is wrk's, closed loop: a stall delays the requests clients would have sent during it without " +
    "counting them (coordinated omission); the open-loop table below is the latency a client sees. " +
    `"${names.kitCached}" runs a cheaper wrk script (one token, headers built once) than the other ` +
    "schema rows (a Lua request() per request picking the next of 10,000 tokens): part of its req/s " +
    "is wrk's CPU left to the server; read its server CPU per request.",
);
for (const [a, b] of close) {
  console.log(`closer than 1.2x after ${rounds} round(s), given ${closeRounds}: ${a} / ${b}`);
}
// A target's ratio at the medians, its range across the two rows' rounds, and its verdict.
const target = (label: string, a: string, b: string, goal: number) => {
  const [x, y] = [spreads.get(a), spreads.get(b)];
  if (x === undefined || y === undefined) return `${label}: n/a`;
  const range = { low: x.min / y.max, median: rps(a) / rps(b), high: x.max / y.min };
  const across = x.rounds > 1 || y.rounds > 1
    ? `, ${range.low.toFixed(2)}-${range.high.toFixed(2)}x across rounds`
    : "";
  return `${label} = ${range.median.toFixed(2)}x${across} (target >= ${goal}): ${
    verdict(range, goal)
  }`;
};
console.log(
  [
    "",
    "Targets of issue #33 (req/s; a verdict reads both rows' spreads: met when even their least favourable " +
    "rounds meet it, NOT met when even their most favourable miss it, else within run-to-run spread):",
    `- ${target("kit Public / bare Hono", names.kitPublic, names.hono, 1.0)}`,
    `- ${target("kit schema (cache off) / @hono/zod-openapi", names.kit, names.zodOpenApi, 1.5)}`,
    `- ${target("kit schema (cache off) / Fastify", names.kit, names.fastify, 1.2)}`,
    `- ${target("kit schema (cache off) / NestJS + Express", names.kit, names.nestExpress, 2.0)}`,
    `- ${target("kit on Node / Fastify", names.kitNode, names.fastify, 1.0)}`,
    `- ${target("kit on Bun / Elysia on Bun", names.kitBun, names.elysia, 1.0)}`,
  ].join("\n"),
);
// What each schema row adds to its runtime's floor for the same request, in server CPU.
const cpu = (name: string) => medians.get(name)?.cpuPerRequest ?? NaN;
const above = (name: string, floor: string) => `${(cpu(name) - cpu(floor)).toFixed(1)} µs`;
console.log(
  `Server CPU per request above the runtime's floor for the same POST: on Deno (floor ${
    cpu(names.floor).toFixed(1)
  } µs) kit ${above(names.kit, names.floor)}, @hono/zod-openapi ${
    above(names.zodOpenApi, names.floor)
  }; on Node 20 (floor ${cpu(names.nodeFloor).toFixed(1)} µs; through @hono/node-server ${
    cpu(names.honoNodeFloor).toFixed(1)
  } µs) kit ${above(names.kitNode, names.nodeFloor)} (${
    above(names.kitNode, names.honoNodeFloor)
  } above @hono/node-server's), Fastify ${
    above(names.fastify, names.nodeFloor)
  }, NestJS + Express ${above(names.nestExpress, names.nodeFloor)}; on Bun (floor ${
    cpu(names.bunFloor).toFixed(1)
  } µs) kit ${above(names.kitBun, names.bunFloor)}, Elysia ${
    above(names.elysia, names.bunFloor)
  }: on one runtime, kit can be ahead of a peer by at most (floor + the peer's share) / floor.`,
);
if (openLoop) {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(
    `\nLatency under load at half peak (open loop, bench/http/open_loop.ts on ${openLoop.runtime}: a fixed rate of half the row's req/s above, ${connections} connections, ${latencySeconds}s measured after a 1s warm-up; latency from each request's scheduled send time)`,
  );
  console.log(
    "| row | peak req/s (closed loop) | rate sent (req/s) | achieved | p50 | p99 | max | errors | generator's own lag p99 |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const row of rows) {
    const r = medians.get(row.name);
    const l = r?.latency;
    if (!r || !l) {
      console.log(`| ${row.name} | skipped | | | | | | | |`);
      continue;
    }
    const n = (value: number) => Math.round(value).toLocaleString("en-US");
    console.log(
      `| ${row.name} | ${n(r.rps)} | ${n(l.rate)} | ${n(l.achieved)} | ${ms(l.p50)} | ${
        ms(l.p99)
      } | ${ms(l.max)} | ${l.errors} | ${ms(l.generatorLagP99)} |`,
    );
  }
}
