/**
 * Where the schema route's bytes are allocated in process: V8's sampling heap profiler (through
 * `node:inspector`, every 32 bytes, objects a collection freed counted too) over the requests of
 * `bytes_per_request.ts`'s loops, each sample put in the nearest kit or harness frame on its
 * stack (the runtime's own functions count for the frame that called them):
 *
 * `deno run -A --v8-flags=--no-turbo-inlining bench/http/where_bytes_go.ts [loop] [requests]`
 *
 * `loop` is `schema, cache off` (default), `schema, one token` or `hello`. Without inlining a
 * function's allocations are not put in its caller's frame; the totals are the same within a few
 * per cent. Prints bytes per request: the total, then by kit frame, then by kit frame and the
 * function that allocated (`ROWS`, default 40, rows of the first table).
 */
import { Session } from "node:inspector";
import { SignJWT } from "jose";
import { kitFetch } from "./kit_app.ts";
import { audience, body, issuer, secret } from "./shared.ts";

const loop = Deno.args[0] ?? "schema, cache off";
const total = Number(Deno.args[1] ?? 5_000);
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
const fetch = kitFetch(loop === "schema, cache off" ? { verifiedTokens: 0 } : {});
const length = String(new TextEncoder().encode(body).byteLength);
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
async function run(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const response = await fetch(request());
    if (response.status >= 300) throw new Error(await response.text());
    await response.arrayBuffer();
  }
}

/** One node of a V8 sampling heap profile. */
interface HeapNode {
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}

await run(4_000);
const session = new Session();
session.connect();
const post = (method: string, params: object) =>
  new Promise<{ profile?: { head: HeapNode } }>((resolve, reject) =>
    session.post(
      method,
      params,
      (
        error,
        result,
      ) => (error ? reject(error) : resolve(result as { profile?: { head: HeapNode } })),
    )
  );
await post("HeapProfiler.enable", {});
await post("HeapProfiler.startSampling", {
  samplingInterval: 32,
  includeObjectsCollectedByMinorGC: true,
  includeObjectsCollectedByMajorGC: true,
});
await run(total);
const { profile } = await post("HeapProfiler.stopSampling", {});

const root = new URL("../..", import.meta.url).href;
const name = (frame: HeapNode["callFrame"]) =>
  `${frame.functionName || "(anonymous)"} ${
    frame.url.replace(root, "").replace(/^.*registry\.npmjs\.org\//, "npm:")
  }:${frame.lineNumber + 1}`;
const byFrame = new Map<string, number>();
const byCallee = new Map<string, number>();
let sampled = 0;
function walk(node: HeapNode, stack: HeapNode[]): void {
  stack.push(node);
  if (node.selfSize > 0) {
    sampled += node.selfSize;
    const own = stack.findLast((n) => n.callFrame.url.startsWith(root));
    const frame = own === undefined ? "(no kit frame)" : name(own.callFrame);
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + node.selfSize);
    const callee = `${frame}  <=  ${name(node.callFrame)}`;
    byCallee.set(callee, (byCallee.get(callee) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, stack);
  stack.pop();
}
walk(profile!.head, []);
const print = (title: string, counts: Map<string, number>, rows: number) => {
  console.log(`\n${title}`);
  for (const [key, bytes] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(bytes / total).toFixed(0).padStart(7)}  ${key}`);
  }
};
console.log(`${loop}: ${(sampled / total).toFixed(0)} bytes sampled per request`);
print("by kit frame (bytes per request)", byFrame, Number(Deno.env.get("ROWS") ?? 40));
print("by kit frame and allocating function", byCallee, 60);
Deno.exit(0);
