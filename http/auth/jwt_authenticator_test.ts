import assert from "node:assert/strict";
import { TestClock, UnauthorizedError } from "@kit/kernel";
import { SignJWT } from "jose";
import { jwtAuthenticator } from "../mod.ts";

const secret = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");
const clock = new TestClock("2026-10-01T12:00:00Z");
const now = Math.floor(clock.now().getTime() / 1000);
const authenticator = jwtAuthenticator({
  key: secret,
  algorithms: ["HS256"],
  issuer: "https://id.kit.test",
  audience: "scheduling",
  clock,
});

function token(
  claims: Record<string, unknown>,
  options: { exp?: number; iss?: string; aud?: string } = {},
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("dr-who")
    .setIssuer(options.iss ?? "https://id.kit.test")
    .setAudience(options.aud ?? "scheduling")
    .setIssuedAt(now)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(secret);
}

const bearer = (value: string) =>
  new Request("http://api.test/", { headers: { authorization: `Bearer ${value}` } });

Deno.test("jwtAuthenticator resolves the actor, roles, tenants and scopes of a valid token", async () => {
  const caller = await authenticator.authenticate(
    bearer(
      await token({
        roles: ["practitioner"],
        tenants: ["p1"],
        scope: "calendars:read calendars:write",
      }),
    ),
  );
  assert.equal(caller?.actor.id, "dr-who");
  assert.deepEqual(caller?.actor.roles, ["practitioner"]);
  assert.deepEqual(caller?.actor.tenants, ["p1"]);
  assert.deepEqual([...caller!.session!.scopes], ["calendars:read", "calendars:write"]);
  const scp = await authenticator.authenticate(bearer(await token({ scp: ["people:read"] })));
  assert.deepEqual([...scp!.session!.scopes], ["people:read"]);
});

Deno.test("jwtAuthenticator leaves a request without Authorization anonymous", async () => {
  assert.equal(await authenticator.authenticate(new Request("http://api.test/")), undefined);
});

Deno.test("jwtAuthenticator refuses an expired token, a wrong issuer or audience, a bad signature", async () => {
  const refused = async (value: string, pattern: RegExp) => {
    await assert.rejects(
      async () => await authenticator.authenticate(bearer(value)),
      (error: unknown) => error instanceof UnauthorizedError && pattern.test(error.message),
    );
  };
  await refused(await token({}, { exp: now - 60 }), /expired/);
  await refused(await token({}, { iss: "https://evil.test" }), /claim 'iss'/);
  await refused(await token({}, { aud: "billing" }), /claim 'aud'/);
  const good = await token({});
  await refused(good.slice(0, -4) + "AAAA", /signature/);
});

Deno.test("jwtAuthenticator refuses alg none and a header that is not a bearer token", async () => {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_");
  const unsigned = `${encode({ alg: "none", typ: "JWT" })}.${
    encode({ sub: "mallory", iss: "https://id.kit.test", aud: "scheduling", exp: now + 600 })
  }.`;
  await assert.rejects(
    async () => await authenticator.authenticate(bearer(unsigned)),
    UnauthorizedError,
  );
  await assert.rejects(
    async () =>
      await authenticator.authenticate(
        new Request("http://api.test/", { headers: { authorization: "Basic abc" } }),
      ),
    { message: "The Authorization header is not a bearer token" },
  );
  assert.throws(
    () => jwtAuthenticator({ key: secret, algorithms: ["none"], issuer: "i", audience: "a" }),
    /never 'none'/,
  );
});
