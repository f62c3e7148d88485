/**
 * Bytes allocated on V8's heap per request of the schema route in process, the figure behind kit's
 * young-generation pauses (issue #33: 24 KB per request, the target 8 KB). Allocation counts move
 * far less with the machine's load than timings do, so this is the figure to compare builds with:
 *
 * `deno run -A bench/http/bytes_per_request.ts [checkout]...` (default: this checkout)
 *
 * For each checkout (taking turns, `BENCH_ROUNDS` rounds, default 3) it runs this file in a child
 * with a young generation of 256 MB, so that no collection runs within a window, and measures
 * `Deno.memoryUsage().heapUsed` before and after windows of 2,000 requests (a window in which a
 * collection ran, its heap smaller after than before, is dropped); the median window is
 * printed, for four loops:
 *
 * - `floor`: the harness alone: the `Request` built, the `Authorization` header read, the body
 *   read and parsed, a constant 202 answer built and read (what any server pays; subtract it);
 * - `schema, cache off`: kit's schema route, the tokens of 1,000 callers in turn and the
 *   verified-token cache off (every token verified), as the side-by-side table runs it;
 * - `schema, one token`: the same with one caller's token, answered by the cache;
 * - `hello`: `GET /hello` (`Public`).
 *
 * µs per request of the same windows are printed too: indicative only on a loaded machine.
 * A checkout without this file gets it copied in (`git archive <commit> | tar -x -C <dir>`).
 */
import { existsSync } from "node:fs";

const loops = ["floor", "schema, cache off", "schema, one token", "hello"] as const;
type Loop = typeof loops[number];
const window = 2_000;
const windows = 8;

if (Deno.args[0] === "--child") {
  const loop = Deno.args[1] as Loop;
  const { body } = await import("./shared.ts");
  const { SignJWT } = await import("jose");
  const { kitFetch } = await import("./kit_app.ts");
  const { audience, issuer, secret } = await import("./shared.ts");
  const callers = loop === "schema, cache off" ? 1_000 : 1;
  const tokens: string[] = [];
  for (let i = 0; i < callers; i++) {
    tokens.push(
      await new SignJWT({ roles: ["practitioner"] })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(`practitioner-${i}`)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime("1d")
        .sign(new TextEncoder().encode(secret)),
    );
  }
  const answer = JSON.stringify({ id: "cal-1:3" });
  const decoder = new TextDecoder();
  const floor = async (request: Request): Promise<Response> => {
    if (request.headers.get("authorization") === null) return new Response(null, { status: 401 });
    const parsed = JSON.parse(decoder.decode(await request.arrayBuffer()));
    if (!Array.isArray(parsed.appointmentIds)) return new Response(null, { status: 422 });
    return new Response(answer, { status: 202, headers: { "content-type": "application/json" } });
  };
  const fetch = loop === "floor"
    ? floor
    : kitFetch(loop === "schema, cache off" ? { verifiedTokens: 0 } : {});
  const length = String(new TextEncoder().encode(body).byteLength);
  const expected = loop === "hello" ? 200 : 202;
  let next = 0;
  const request = loop === "hello"
    ? () => new Request("http://bench.test/hello")
    : () =>
      new Request("http://bench.test/calendars/cal-1/clearances?notify=yes", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${tokens[next++ % callers]}`,
          "x-request-source": "bench",
          "content-length": length,
        },
        body,
      });
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const response = await fetch(request());
      if (response.status !== expected) {
        throw new Error(`unexpected ${response.status}: ${await response.text()}`);
      }
      await response.arrayBuffer();
    }
  };
  await run(4_000);
  const bytes: number[] = [];
  const micros: number[] = [];
  for (let w = 0; w < windows; w++) {
    const heap = Deno.memoryUsage().heapUsed;
    const start = performance.now();
    await run(window);
    const elapsed = performance.now() - start;
    const grown = Deno.memoryUsage().heapUsed - heap;
    if (grown > 0) bytes.push(grown / window);
    micros.push((elapsed * 1000) / window);
  }
  console.log(JSON.stringify({ bytes: median(bytes), micros: median(micros) }));
  Deno.exit(0);
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const checkouts = Deno.args.length > 0 ? Deno.args : ["."];
const rounds = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
for (const checkout of checkouts) {
  const file = `${checkout}/bench/http/bytes_per_request.ts`;
  if (!existsSync(file)) await Deno.copyFile(new URL(import.meta.url), file);
}
const results = new Map<string, { bytes: number[]; micros: number[] }>();
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
console.log(`load average before: ${load()}`);
for (let round = 1; round <= rounds; round++) {
  for (const loop of loops) {
    for (const checkout of checkouts) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--v8-flags=--max-semi-space-size=256,--min-semi-space-size=256",
          "bench/http/bytes_per_request.ts",
          "--child",
          loop,
        ],
        cwd: checkout,
        stdout: "piped",
        stderr: "inherit",
      }).output();
      const { bytes, micros } = JSON.parse(new TextDecoder().decode(out.stdout));
      const key = `${checkout}\t${loop}`;
      const entry = results.get(key) ?? { bytes: [], micros: [] };
      entry.bytes.push(bytes);
      entry.micros.push(micros);
      results.set(key, entry);
    }
  }
}
console.log(`load average after: ${load()}`);
console.log(`\nmedians of ${rounds} rounds, each the median of ${windows} windows of ${window}:\n`);
console.log("| checkout | loop | bytes per request | µs per request |");
console.log("| --- | --- | ---: | ---: |");
for (const [key, { bytes, micros }] of results) {
  const [checkout, loop] = key.split("\t");
  console.log(
    `| ${checkout} | ${loop} | ${median(bytes).toFixed(0)} | ${median(micros).toFixed(1)} |`,
  );
}
