/**
 * The kit application on Node 20, through @hono/node-server: bundled to one module by the
 * benchmark (`deno bundle`), then run with `node <bundle> <port>`. Its verified-token cache is
 * off, as in the Deno schema row: every token is verified.
 */
import { serve } from "@hono/node-server";
import { kitFetch } from "./kit_app.ts";

const port = Number(process.argv[2]);
serve(
  { fetch: kitFetch({ verifiedTokens: 0 }), port, hostname: "127.0.0.1" },
  () => console.log("ready"),
);
