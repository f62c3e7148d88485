/**
 * The kit application on Node 20, through @hono/node-server: bundled to one module by the
 * benchmark (`deno bundle`), then run with `node <bundle> <port>`.
 */
import { serve } from "@hono/node-server";
import { kitFetch } from "./kit_app.ts";

const port = Number(process.argv[2]);
serve({ fetch: kitFetch(), port, hostname: "127.0.0.1" }, () => console.log("ready"));
