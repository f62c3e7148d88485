/**
 * The kit application answering the schema route in process, in a loop, for CPU profiles:
 * `deno run -A --cpu-prof bench/http/kit_loop.ts [requests] [callers]` (on Node: bundle it with
 * `deno bundle --platform node` and run `node --cpu-prof <bundle> [requests] [callers]`). Prints
 * µs per request. With one caller (the default) every request bears the same token and the
 * verified-token cache answers it; with `callers` > 1 the requests bear the tokens of that many
 * callers in turn and the cache is off: every token is verified, as in the side-by-side table.
 */
import { SignJWT } from "jose";
import { kitFetch } from "./kit_app.ts";
import { audience, body, issuer, secret } from "./shared.ts";

const args = typeof Deno === "undefined"
  ? (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2)
  : Deno.args;
const total = Number(args[0] ?? 20_000);
const callers = Math.max(1, Number(args[1] ?? 1));
const fetch = kitFetch(callers > 1 ? { verifiedTokens: 0 } : {});
// Signed here, not with schema_request.ts: ab.ts copies this file alone into older checkouts.
const tokens: string[] = [];
for (let i = 0; i < callers; i++) {
  tokens.push(
    await new SignJWT({ roles: ["practitioner"] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(callers > 1 ? `practitioner-${i}` : "dr-who")
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime("1d")
      .sign(new TextEncoder().encode(secret)),
  );
}
// As a client sends it, and as a server's request carries it.
const length = String(new TextEncoder().encode(body).byteLength);
let next = 0;
const request = () =>
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
