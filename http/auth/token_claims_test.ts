import assert from "node:assert/strict";
import { TestClock } from "@kit/kernel/testing";
import { InvalidTokenError, jwtAuthenticator } from "../mod.ts";
import type { JwtAuthenticatorOptions } from "../types.ts";

const secret = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");
const clock = new TestClock("2026-10-01T12:00:00Z");
const now = Math.floor(clock.now().getTime() / 1000);
const base = { sub: "dr-who", iss: "https://id.kit.test", aud: "scheduling" };

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replaceAll("=", "").replaceAll("+", "-")
    .replaceAll("/", "_");

/**
 * A token whose payload is the JSON text given as it is (so `1e400`, read as Infinity, can be
 * signed), signed with the test secret: HS256 takes the fast path, HS384 goes to jose.
 */
async function rawToken(payloadJson: string, alg: "HS256" | "HS384"): Promise<string> {
  const encode = (text: string) => b64url(new TextEncoder().encode(text));
  const signing = `${encode(JSON.stringify({ alg, typ: "JWT" }))}.${encode(payloadJson)}`;
  const hash = alg === "HS256" ? "SHA-256" : "SHA-384";
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash }, false, [
    "sign",
  ]);
  const signature = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(signing)),
  );
  return `${signing}.${b64url(signature)}`;
}

const token = (claims: Record<string, unknown>, alg: "HS256" | "HS384") =>
  rawToken(JSON.stringify({ ...base, ...claims }), alg);

function authenticator(extra: Partial<JwtAuthenticatorOptions> = {}) {
  return jwtAuthenticator({
    key: secret,
    algorithms: ["HS256", "HS384"],
    issuer: base.iss,
    audience: base.aud,
    clock,
    ...extra,
  });
}

const bearer = (value: string) =>
  new Request("http://api.test/", { headers: { authorization: `Bearer ${value}` } });

async function refused(
  by: ReturnType<typeof authenticator>,
  value: string,
  detail: RegExp,
): Promise<void> {
  // Twice: a refused token is never kept among the verified ones.
  for (let i = 0; i < 2; i++) {
    await assert.rejects(
      async () => await by.authenticate(bearer(value)),
      (error: unknown) => {
        assert.ok(error instanceof InvalidTokenError, String(error));
        assert.equal(error.code, "UNAUTHORIZED");
        assert.match(error.message, detail);
        return true;
      },
    );
  }
}

for (const alg of ["HS256", "HS384"] as const) {
  const path = alg === "HS256" ? "the fast path" : "jose";
  Deno.test(`jwtAuthenticator refuses a token living over 24 hours by default (${path})`, async () => {
    const by = authenticator();
    await refused(by, await token({ iat: now, exp: 1e300 }, alg), /lives longer than the 86400 s/);
    await refused(by, await token({ iat: now, exp: now + 86_401 }, alg), /exp - iat is 86401 s/);
    // Without iat, from now.
    await refused(by, await token({ exp: now + 90_000 }, alg), /exp - now is 90000 s/);
    // An old iat and a far exp: its lifetime, not what is left of it, is judged.
    await refused(by, await token({ iat: now - 86_000, exp: now + 1_000 }, alg), /87000 s/);
    const day = await by.authenticate(bearer(await token({ iat: now, exp: now + 86_400 }, alg)));
    assert.equal(day?.actor.id, "dr-who");
  });

  Deno.test(`jwtAuthenticator's maximum lifetime is an option; Infinity turns it off (${path})`, async () => {
    const hour = authenticator({ maxTokenLifetimeSeconds: 3_600 });
    await refused(hour, await token({ iat: now, exp: now + 3_601 }, alg), /3600 s allowed/);
    const off = authenticator({ maxTokenLifetimeSeconds: Infinity });
    const caller = await off.authenticate(bearer(await token({ iat: now, exp: 1e300 }, alg)));
    assert.equal(caller?.actor.id, "dr-who");
  });

  Deno.test(`jwtAuthenticator refuses malformed claims instead of reading them as absent (${path})`, async () => {
    const by = authenticator();
    const exp = now + 600;
    await refused(
      by,
      await token({ exp, tenants: "p1" }, alg),
      /tenants claim is not a list of strings/,
    );
    await refused(
      by,
      await token({ exp, tenants: ["p1", 2] }, alg),
      /tenants claim is not a list of strings/,
    );
    await refused(
      by,
      await token({ exp, roles: { admin: true } }, alg),
      /roles claim is not a list of strings/,
    );
    await refused(by, await token({ exp, sub: 42 }, alg), /subject \(sub\) is not a string/);
    const infinite = (claim: string) =>
      rawToken(`{"sub":"dr-who","iss":"${base.iss}","aud":"scheduling",${claim}}`, alg);
    await refused(by, await infinite(`"exp":1e400`), /expiry \(exp\) is not a finite number/);
    await refused(
      by,
      await infinite(`"exp":${exp},"iat":-1e400`),
      /issue time \(iat\) is not a finite number/,
    );
    await refused(
      by,
      await infinite(`"exp":${exp},"nbf":-1e400`),
      /start of validity \(nbf\) is not a finite number/,
    );
    const fine = await by.authenticate(
      bearer(await token({ exp, roles: ["patient"], tenants: [] }, alg)),
    );
    assert.deepEqual([fine?.actor.roles, fine?.actor.tenants], [["patient"], []]);
  });
}

Deno.test("jwtAuthenticator refuses a maximum lifetime that is not a positive number", () => {
  for (const bad of [0, -1, Number.NaN]) {
    assert.throws(() => authenticator({ maxTokenLifetimeSeconds: bad }), TypeError);
  }
});
