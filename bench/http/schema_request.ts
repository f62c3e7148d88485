/**
 * The schema route's request as the load generator sends it: a real HS256 token of the bench's
 * issuer and audience, and the `wrk` script that posts the body with it.
 */
import { SignJWT } from "jose";
import { audience, body, issuer, secret } from "./shared.ts";

/** A token of practitioner dr-who, valid for a day. */
export function benchToken(): Promise<string> {
  return new SignJWT({ roles: ["practitioner"] })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("dr-who")
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("1d")
    .sign(new TextEncoder().encode(secret));
}

/** Writes the `wrk` script of the schema route's request to a temporary file; answers its path. */
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
