/**
 * The kit application on Bun, served by `Bun.serve` (as docs/guides/runtimes.md's "Use kit on
 * Bun"): bundled to one module by the benchmark (`deno bundle --platform node`), then run with
 * `bun <bundle> <port>`. Its verified-token cache is off, as in the Deno schema row: every token is
 * verified.
 */
import { kitFetch } from "./kit_app.ts";

/** The part of Bun's global this entry uses (Bun's own types are not a dependency of kit). */
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    development: boolean;
    fetch(request: Request): Response | Promise<Response>;
  }): unknown;
};

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.argv[2]),
  development: false,
  fetch: kitFetch({ verifiedTokens: 0 }),
});
console.log("ready");
