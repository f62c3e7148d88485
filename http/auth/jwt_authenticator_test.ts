import assert from "node:assert/strict";
import { UnauthorizedError } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { SignJWT } from "jose";
import { InvalidTokenError, jwtAuthenticator } from "../mod.ts";
import type { JwtAuthenticatorOptions } from "../types.ts";

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

function options(): JwtAuthenticatorOptions {
  return {
    key: secret,
    algorithms: ["HS256"],
    issuer: "https://id.kit.test",
    audience: "scheduling",
    clock,
  };
}

Deno.test("jwtAuthenticator leaves a request without Authorization anonymous", async () => {
  assert.equal(await authenticator.authenticate(new Request("http://api.test/")), undefined);
});

/** Signs the claims as they are (no claim added), with HS256 and the test secret. */
function signed(claims: Record<string, unknown>, alg = "HS256"): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg }).sign(secret);
}

const valid = { sub: "dr-who", iss: "https://id.kit.test", aud: "scheduling", exp: now + 600 };

/** Asserts that the authenticator refuses the token with an InvalidTokenError of this detail. */
async function refused(
  value: string,
  detail: string,
  by: { authenticate(request: Request): unknown } = authenticator,
): Promise<void> {
  await assert.rejects(
    async () => await by.authenticate(bearer(value)),
    (error: unknown) => {
      assert.ok(error instanceof InvalidTokenError, String(error));
      assert.ok(error instanceof UnauthorizedError);
      assert.equal(error.code, "UNAUTHORIZED");
      assert.equal(error.message, detail);
      return true;
    },
  );
}

Deno.test("jwtAuthenticator refuses an expired token, a wrong issuer or audience, a bad signature", async () => {
  await refused(await token({}, { exp: now - 60 }), "The token has expired");
  await refused(
    await token({}, { iss: "https://evil.test" }),
    "The token's issuer is not accepted",
  );
  await refused(await token({}, { aud: "billing" }), "The token's audience is not accepted");
  const good = await token({});
  await refused(good.slice(0, -4) + "AAAA", "The token's signature does not verify");
});

Deno.test("jwtAuthenticator says in one sentence what is wrong with a token, never jose's words", async () => {
  const { iss: _iss, ...withoutIssuer } = valid;
  const { aud: _aud, ...withoutAudience } = valid;
  const { sub: _sub, ...withoutSubject } = valid;
  await refused(await signed(withoutIssuer), "The token has no issuer (iss)");
  await refused(await signed(withoutAudience), "The token has no audience (aud)");
  await refused(await signed(withoutSubject), "The token has no subject (sub)");
  await refused(
    await signed({ ...valid, nbf: "soon" }),
    "The token's start of validity (nbf) is not a number",
  );
  await refused(
    await signed({ ...valid, exp: "later" }),
    "The token's expiry (exp) is not a number",
  );
  await refused(await signed(valid, "HS512"), "The token's algorithm is not accepted");
  await refused("abc.def.ghi", "The token cannot be read");
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_");
  const [header, , signature] = (await signed(valid)).split(".");
  await refused(
    `${header}.${btoa("not json").replaceAll("=", "")}.${signature}`,
    "The token's signature does not verify",
  );
  await refused(
    `${encode({ alg: "HS256", crit: ["x-unknown"], "x-unknown": 1 })}.${encode(valid)}.AAAA`,
    "The token uses a feature that is not supported",
  );
});

Deno.test("jwtAuthenticator requires exp by default; requireExpiry: false accepts a token without it", async () => {
  const { exp: _exp, ...withoutExpiry } = valid;
  const value = await signed(withoutExpiry);
  await refused(value, "The token has no expiry (exp)");
  const lenient = jwtAuthenticator({ ...options(), requireExpiry: false });
  assert.equal((await lenient.authenticate(bearer(value)))?.actor.id, "dr-who");
  assert.equal((await lenient.authenticate(bearer(value)))?.session?.expiresAt, undefined);
});

Deno.test("jwtAuthenticator refuses iat and nbf in the future beyond the clock tolerance, not within it", async () => {
  await refused(
    await signed({ ...valid, iat: now + 6 }),
    "The token was issued in the future (iat)",
  );
  await refused(await signed({ ...valid, nbf: now + 6 }), "The token is not valid yet (nbf)");
  assert.equal(
    (await authenticator.authenticate(bearer(await signed({ ...valid, iat: now + 5 }))))
      ?.actor.id,
    "dr-who",
  );
  assert.equal(
    (await authenticator.authenticate(bearer(await signed({ ...valid, nbf: now + 5 }))))
      ?.actor.id,
    "dr-who",
  );
  const strict = jwtAuthenticator({ ...options(), clockToleranceSeconds: 0 });
  await refused(
    await signed({ ...valid, iat: now + 1 }),
    "The token was issued in the future (iat)",
    strict,
  );
  await refused(await signed({ ...valid, exp: now }), "The token has expired", strict);
  assert.equal(
    (await authenticator.authenticate(bearer(await signed({ ...valid, exp: now - 4 }))))
      ?.actor.id,
    "dr-who",
    "within the default tolerance of 5 s",
  );
  assert.throws(
    () => jwtAuthenticator({ ...options(), clockToleranceSeconds: -1 }),
    /clockToleranceSeconds must be a number of seconds >= 0, got -1/,
  );
});

Deno.test("jwtAuthenticator verifies a token without exp every time (never kept), one with exp once", async () => {
  const subtle = crypto.subtle;
  const verify = subtle.verify;
  let verifications = 0;
  subtle.verify = function (...args: Parameters<SubtleCrypto["verify"]>) {
    verifications++;
    return verify.apply(subtle, args);
  } as SubtleCrypto["verify"];
  try {
    // HS384: verified through WebCrypto, whose calls are counted (HS256 takes the synchronous
    // path, which the cache serves the same way).
    const lenient = jwtAuthenticator({ ...options(), algorithms: ["HS384"], requireExpiry: false });
    const { exp: _exp, ...withoutExpiry } = valid;
    const forever = await signed(withoutExpiry, "HS384");
    for (let i = 0; i < 3; i++) await lenient.authenticate(bearer(forever));
    assert.equal(verifications, 3);
    const expiring = await signed(valid, "HS384");
    for (let i = 0; i < 3; i++) await lenient.authenticate(bearer(expiring));
    assert.equal(verifications, 4);
  } finally {
    subtle.verify = verify;
  }
});

Deno.test("jwtAuthenticator refuses alg none and a header that is not a bearer token", async () => {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_");
  const unsigned = `${encode({ alg: "none", typ: "JWT" })}.${
    encode({ sub: "mallory", iss: "https://id.kit.test", aud: "scheduling", exp: now + 600 })
  }.`;
  await refused(unsigned, "The token's algorithm is not accepted");
  await assert.rejects(
    async () =>
      await authenticator.authenticate(
        new Request("http://api.test/", { headers: { authorization: "Basic abc" } }),
      ),
    { name: "InvalidTokenError", message: "The Authorization header is not a bearer token" },
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
  await refused(early, "The token is not valid yet (nbf)", cached);
  instant = (start + 64) * 1000;
  assert.equal((await cached.authenticate(bearer(early)))?.actor.id, "dr-who");
  instant = (start + 65) * 1000;
  await refused(early, "The token has expired", cached);
  // A token verified, then met again after the clock went back before its iat.
  instant = start * 1000;
  const issued = await signed({ ...valid, iat: start, exp: start + 60 });
  assert.equal((await cached.authenticate(bearer(issued)))?.actor.id, "dr-who");
  instant = (start - 10) * 1000;
  await refused(issued, "The token was issued in the future (iat)", cached);
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
  await refused(forged, "The token's signature does not verify");
  await refused(good.slice(0, -4) + "AAAA", "The token's signature does not verify");
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
  await refused(value, "The token cannot be verified", rotating);
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
  await refused(await token({}), "The token's algorithm is not accepted", both);
});

Deno.test("InvalidTokenError's challenge names invalid_token and the detail, in the quoted-string RFC 6750 allows", () => {
  assert.equal(
    new InvalidTokenError("The token has expired").challenge,
    'Bearer error="invalid_token", error_description="The token has expired"',
  );
  assert.equal(
    new InvalidTokenError('A "quoted" \\ détail').challenge,
    'Bearer error="invalid_token", error_description="A ?quoted? ? d?tail"',
  );
});
