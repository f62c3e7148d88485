/**
 * The floor of kit on Node: @hono/node-server answering the schema route's request with a
 * constant 202 JSON body after reading the JSON body and one header, and nothing else (no
 * validation, no token, no bus). Bundled like `kit_node.ts` (`deno bundle --platform node`), then
 * `node <bundle> [als] <port>`; with `als`, the handler runs in an AsyncLocalStorage as kit's does.
 * Not a row of the side-by-side table: it tells the runtime's share from kit's.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { serve } from "@hono/node-server";

const args = (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
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
serve({
  fetch: als
    ? (request: Request) => storage.run({ id: "x" }, () => answer(request))
    : answer,
  port,
  hostname: "127.0.0.1",
}, () => console.log("ready"));
