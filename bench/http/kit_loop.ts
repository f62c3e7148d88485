/**
 * The kit application answering the schema route in process, in a loop, for CPU profiles:
 * `deno run -A --cpu-prof bench/http/kit_loop.ts [requests]` (on Node: bundle it with
 * `deno bundle --platform node` and run `node --cpu-prof <bundle> [requests]`). Prints µs per request.
 */
import { SignJWT } from "jose";
import { kitFetch } from "./kit_app.ts";
import { audience, body, issuer, secret } from "./shared.ts";

const args = typeof Deno === "undefined"
  ? (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2)
  : Deno.args;
const total = Number(args[0] ?? 20_000);
const fetch = kitFetch();
// Signed here, not with schema_request.ts: ab.ts copies this file alone into older checkouts.
const token = await new SignJWT({ roles: ["practitioner"] })
  .setProtectedHeader({ alg: "HS256" })
  .setSubject("dr-who")
  .setIssuer(issuer)
  .setAudience(audience)
  .setIssuedAt()
  .setExpirationTime("1d")
  .sign(new TextEncoder().encode(secret));
const request = () =>
  new Request("http://bench.test/calendars/cal-1/clearances?notify=yes", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "x-request-source": "bench",
      // As a client sends it, and as a server's request carries it.
      "content-length": String(new TextEncoder().encode(body).byteLength),
    },
    body,
  });

async function round(n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const response = await fetch(request());
    if (response.status !== 202) {
      throw new Error(`unexpected ${response.status}: ${await response.text()}`);
    }
    await response.arrayBuffer();
  }
  return ((performance.now() - start) * 1000) / n;
}

await round(Math.min(2_000, total));
console.log(`${(await round(total)).toFixed(1)} µs per request`);
