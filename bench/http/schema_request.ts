/**
 * The schema route's request as the load generator sends it: real HS256 tokens of the bench's
 * issuer and audience, and the `wrk` scripts that post the body with them: one caller's token
 * repeated, or a pool of distinct callers' tokens sent round-robin (every request a token the
 * server has not seen for 9,999 requests, as on a real API with many users).
 */
import { SignJWT } from "jose";
import { audience, body, issuer, secret } from "./shared.ts";

/** How many distinct callers the pool holds. */
export const callers = 10_000;

/** A token of practitioner `subject` (default dr-who), valid for a day. */
export function benchToken(subject = "dr-who"): Promise<string> {
  return new SignJWT({ roles: ["practitioner"] })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(subject)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("1d")
    .sign(new TextEncoder().encode(secret));
}

/** Writes the `wrk` script of the schema route's request with one token to a temporary file. */
export async function writeWrkScript(token: string): Promise<string> {
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(
    script,
    `wrk.method = "POST"
wrk.body = '${body}'
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer ${token}"
wrk.headers["x-request-source"] = "bench"
`,
  );
  return script;
}

/**
 * Writes the `wrk` script that sends the tokens of {@linkcode callers} distinct practitioners
 * round-robin (their tokens in a file beside it, one a line, which `open_loop.ts --tokens` reads
 * too); answers both paths and how to remove both.
 */
export async function writePoolWrkScript(): Promise<
  { script: string; tokens: string; remove(): Promise<void> }
> {
  const tokens: string[] = [];
  for (let i = 0; i < callers; i++) tokens.push(await benchToken(`practitioner-${i}`));
  const file = await Deno.makeTempFile({ suffix: ".tokens" });
  await Deno.writeTextFile(file, tokens.join("\n") + "\n");
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(
    script,
    `local tokens = {}
local next = 0
wrk.method = "POST"
wrk.body = '${body}'
wrk.headers["content-type"] = "application/json"
wrk.headers["x-request-source"] = "bench"
function init(args)
  for line in io.lines("${file}") do tokens[#tokens + 1] = line end
end
function request()
  next = next % #tokens + 1
  wrk.headers["authorization"] = "Bearer " .. tokens[next]
  return wrk.format(nil, nil, wrk.headers, wrk.body)
end
`,
  );
  return {
    script,
    tokens: file,
    async remove() {
      await Deno.remove(script);
      await Deno.remove(file);
    },
  };
}
