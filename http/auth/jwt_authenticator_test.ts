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

Deno.test("jwtAuthenticator redoes the time checks of a token it verified before", async () => {
  // A clock that may go back, as a wall clock may.
  let instant = Date.parse("2026-10-01T12:00:00Z");
  const ticking = { now: () => new Date(instant), sleep: () => Promise.resolve() };
  const cached = jwtAuthenticator({
    key: secret,
    algorithms: ["HS256"],
    issuer: "https://id.kit.test",
    audience: "scheduling",
    clockToleranceSeconds: 5,
    clock: ticking,
  });
  const start = Math.floor(ticking.now().getTime() / 1000);
  const early = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("dr-who")
    .setIssuer("https://id.kit.test")
    .setAudience("scheduling")
    .setNotBefore(start)
    .setExpirationTime(start + 60)
    .sign(secret);
  assert.equal((await cached.authenticate(bearer(early)))?.actor.id, "dr-who");
  assert.equal((await cached.authenticate(bearer(early)))?.actor.id, "dr-who");
  instant = (start - 10) * 1000;
  await assert.rejects(async () => await cached.authenticate(bearer(early)), /claim 'nbf'/);
  instant = (start + 64) * 1000;
  assert.equal((await cached.authenticate(bearer(early)))?.actor.id, "dr-who");
  instant = (start + 65) * 1000;
  await assert.rejects(async () => await cached.authenticate(bearer(early)), /expired/);
});

Deno.test("jwtAuthenticator refuses a changed token after verifying the original", async () => {
  const good = await token({ roles: ["practitioner"] });
  assert.equal((await authenticator.authenticate(bearer(good)))?.actor.id, "dr-who");
  const [header, , signature] = good.split(".");
  const forged = `${header}.${
    btoa(JSON.stringify({
      sub: "dr-who",
      roles: ["admin"],
      iss: "https://id.kit.test",
      aud: "scheduling",
      exp: now + 600,
    })).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_")
  }.${signature}`;
  await assert.rejects(async () => await authenticator.authenticate(bearer(forged)), /signature/);
  await assert.rejects(
    async () => await authenticator.authenticate(bearer(good.slice(0, -4) + "AAAA")),
    /signature/,
  );
});

Deno.test("jwtAuthenticator with a key set verifies every request (a dropped key refuses at once)", async () => {
  let keys: Uint8Array[] = [secret];
  const rotating = jwtAuthenticator({
    key: () => {
      if (keys.length === 0) throw new Error("no key");
      return keys[0]!;
    },
    algorithms: ["HS256"],
    issuer: "https://id.kit.test",
    audience: "scheduling",
    clock,
  });
  const value = await token({});
  assert.equal((await rotating.authenticate(bearer(value)))?.actor.id, "dr-who");
  keys = [];
  await assert.rejects(async () => await rotating.authenticate(bearer(value)), UnauthorizedError);
});

Deno.test("jwtAuthenticator accepts HS384 and HS512 with the same secret, each imported for its hash", async () => {
  const both = jwtAuthenticator({
    key: secret,
    algorithms: ["HS384", "HS512"],
    issuer: "https://id.kit.test",
    audience: "scheduling",
    clock,
  });
  for (const alg of ["HS384", "HS512", "HS384"]) {
    const value = await new SignJWT({})
      .setProtectedHeader({ alg })
      .setSubject(`user-${alg}`)
      .setIssuer("https://id.kit.test")
      .setAudience("scheduling")
      .setExpirationTime(now + 600)
      .sign(secret);
    assert.equal((await both.authenticate(bearer(value)))?.actor.id, `user-${alg}`);
  }
  await assert.rejects(
    async () => await both.authenticate(bearer(await token({}))),
    /algorithm is not accepted/,
  );
});
