/**
 * Load over a real socket: bare Hono and the kit pipeline (a `Public` route, and the schema route
 * with params, query, a header, a JSON body and a guard), each served by `Deno.serve` in its own
 * process on loopback and loaded by `wrk` (Debian's package) from another process: warm-up, then a
 * measured round. Prints req/s and p99. Skipped with one line when `wrk` is missing.
 */
import { fileURLToPath } from "node:url";

const server = fileURLToPath(new URL("./http_server.ts", import.meta.url));
const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 5);

try {
  await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).output();
} catch {
  console.log("skipped: the HTTP load benchmark needs wrk (apt-get install wrk)");
  Deno.exit(0);
}

const postScript = await Deno.makeTempFile({ suffix: ".lua" });
await Deno.writeTextFile(
  postScript,
  `wrk.method = "POST"
wrk.body = '{"reason":"practice closed","appointmentIds":["a1","a2","a3"]}'
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer x"
wrk.headers["x-request-source"] = "bench"
`,
);

async function load(
  app: string,
  path: string,
  script?: string,
): Promise<{ rps: number; p99: string }> {
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", server, app, String(port)],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  await reader.read(); // "ready"
  const url = `http://127.0.0.1:${port}${path}`;
  const args = (
    d: number,
  ) => ["-t1", "-c32", `-d${d}s`, "--latency", ...(script ? ["-s", script] : []), url];
  await new Deno.Command("wrk", { args: args(2), stdout: "null" }).output();
  const out = new TextDecoder().decode(
    (await new Deno.Command("wrk", { args: args(seconds), stdout: "piped" }).output()).stdout,
  );
  child.kill("SIGTERM");
  await child.status;
  await reader.cancel().catch(() => {});
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p99: /\n\s+99%\s+(\S+)/.exec(out)?.[1] ?? "?",
  };
}

const hono = await load("hono", "/hello");
const kitPublic = await load("kit", "/hello");
const kitSchema = await load("kit", "/calendars/cal-1/clearances?notify=yes", postScript);
console.log(
  `\nHTTP over loopback (wrk -t1 -c32, ${seconds}s after a 2s warm-up; server and load share ${navigator.hardwareConcurrency} cores)`,
);
console.log("| row | req/s | p99 | ratio to bare Hono |\n| --- | --- | --- | --- |");
for (
  const [name, r] of [["bare Hono, GET /hello", hono], ["kit, GET /hello (Public)", kitPublic], [
    "kit, POST schema route",
    kitSchema,
  ]] as const
) {
  console.log(
    `| ${name} | ${Math.round(r.rps).toLocaleString("en-US")} | ${r.p99} | ${
      (r.rps / hono.rps).toFixed(2)
    }x |`,
  );
}
await Deno.remove(postScript);
