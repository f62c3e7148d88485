/**
 * The runtime's floor under the schema route: the same request answered with a constant 202 JSON
 * body after reading the Authorization header and the JSON body, and nothing else (no
 * validation, no token, no bus), on `Deno.serve`, on Node through @hono/node-server as kit on
 * Node is served, or on `Bun.serve` as kit on Bun is served. The side-by-side table runs them as
 * limit rows of the POST: they tell the runtime's share from kit's.
 *
 * - Deno: `deno run -A bench/http/floor.ts [als] <port>`
 * - Node: `deno bundle --platform node -o floor.mjs bench/http/floor.ts`, then
 *   `node floor.mjs [als] <port>`, or on Bun `bun floor.mjs [als] <port>`
 *
 * With `als`, the answer runs in an `AsyncLocalStorage`, as kit's pipeline does.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { serve } from "@hono/node-server";

/** The part of Bun's global the floor uses (Bun's own types are not a dependency of kit). */
interface BunServe {
  serve(options: {
    hostname: string;
    port: number;
    development: boolean;
    fetch(request: Request): Response | Promise<Response>;
  }): unknown;
}

const onDeno = typeof Deno !== "undefined";
const bun = (globalThis as unknown as { Bun?: BunServe }).Bun;
const args = onDeno
  ? Deno.args
  : (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
const port = Number(args.at(-1));
const als = args.includes("als");
const storage = new AsyncLocalStorage<{ id: string }>();
const body = JSON.stringify({ id: "cal-1:3" });

async function answer(request: Request): Promise<Response> {
  if (request.headers.get("authorization") === null) return new Response(null, { status: 401 });
  const parsed = JSON.parse(new TextDecoder().decode(await request.arrayBuffer()));
  if (!Array.isArray(parsed.appointmentIds)) return new Response(null, { status: 422 });
  return new Response(body, { status: 202, headers: { "content-type": "application/json" } });
}
const fetch = als ? (request: Request) => storage.run({ id: "x" }, () => answer(request)) : answer;

if (onDeno) {
  Deno.serve({ port, hostname: "127.0.0.1", onListen: () => console.log("ready") }, fetch);
} else if (bun) {
  bun.serve({ port, hostname: "127.0.0.1", development: false, fetch });
  console.log("ready");
} else {
  serve({ fetch, port, hostname: "127.0.0.1" }, () => console.log("ready"));
}
