import assert from "node:assert/strict";
import { jwtVerify } from "jose";
import { hs256FastPath } from "./hs256_fast_path.ts";

const secret = new TextEncoder().encode("a-secret-of-the-fast-path-test-32b!");
const issuer = "https://id.kit.test";
const audience = ["scheduling", "billing"];
const now = 1_800_000_000;
const tolerance = 5;
const fast = hs256FastPath(secret, {
  issuer,
  audience,
  toleranceSeconds: tolerance,
  requireExpiry: true,
});

const encode = (value: unknown) =>
  btoa(typeof value === "string" ? value : JSON.stringify(value)).replaceAll("=", "")
    .replaceAll("+", "-").replaceAll("/", "_");

/** A token signed with `key` (HS256) over exactly `signing` (any text, even what no signer makes). */
async function signedOver(signing: string, key: Uint8Array<ArrayBuffer> = secret): Promise<string> {
  const imported = await crypto.subtle.importKey(
    "raw",
    key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = new Uint8Array(
    await crypto.subtle.sign("HMAC", imported, new TextEncoder().encode(signing)),
  );
  return `${signing}.${encode(String.fromCharCode(...signature))}`;
}

/** A token of these header and claims, signed with `key` (HS256). */
function token(
  header: Record<string, unknown>,
  claims: unknown,
  key: Uint8Array<ArrayBuffer> = secret,
): Promise<string> {
  return signedOver(`${encode(header)}.${encode(claims)}`, key);
}

/** What jose decides with the same options: the claims, or undefined when it refuses. */
async function jose(value: string): Promise<unknown> {
  try {
    const { payload } = await jwtVerify(value, secret, {
      algorithms: ["HS256"],
      issuer,
      audience,
      clockTolerance: tolerance,
      requiredClaims: ["exp"],
      currentDate: new Date(now * 1000),
    });
    return payload;
  } catch {
    return undefined;
  }
}

const valid = { sub: "dr-who", iss: issuer, aud: "scheduling", exp: now + 60, iat: now };

Deno.test("the HS256 fast path accepts only what jose accepts, with the same claims, and takes the plain valid tokens", async () => {
  const headers: Record<string, unknown>[] = [
    { alg: "HS256" },
    { alg: "HS256", typ: "JWT" },
    { alg: "HS256", kid: "k1" },
    { alg: "HS384" },
    { alg: "none" },
    { alg: "HS256", crit: ["exp"] },
    { alg: "HS256", b64: false, crit: ["b64"] },
  ];
  const claims: unknown[] = [
    valid,
    { ...valid, aud: ["other", "billing"] },
    { ...valid, aud: "other" },
    { ...valid, aud: ["other"] },
    { ...valid, aud: 7 },
    { ...valid, iss: "https://evil.test" },
    { ...valid, iss: undefined },
    { ...valid, exp: undefined },
    { ...valid, exp: "soon" },
    { ...valid, exp: now },
    { ...valid, exp: now - tolerance },
    { ...valid, exp: now - tolerance + 1 },
    { ...valid, nbf: now + tolerance },
    { ...valid, nbf: now + tolerance + 1 },
    { ...valid, nbf: "later" },
    { ...valid, iat: "then" },
    { ...valid, iat: now + 1000 },
    [valid],
    "not an object",
    null,
  ];
  let taken = 0;
  for (const header of headers) {
    for (const claim of claims) {
      const value = await token(header, claim);
      const forged = await token(
        header,
        claim,
        new TextEncoder().encode("another-secret-entirely-32-bytes!!"),
      );
      for (const candidate of [value, forged, `${value.slice(0, -2)}AA`]) {
        const decided = fast(candidate, now);
        const byJose = await jose(candidate);
        if (decided !== undefined) {
          taken++;
          assert.deepEqual(decided, byJose, `${JSON.stringify(header)} ${JSON.stringify(claim)}`);
        }
      }
    }
  }
  // The plain valid ones (4 headers × 6 claims sets jose accepts, signed with the secret) are
  // taken by the fast path, not only left to jose.
  for (const header of headers.slice(0, 3)) {
    for (
      const claim of [valid, { ...valid, aud: ["other", "billing"] }, {
        ...valid,
        nbf: now + tolerance,
      }]
    ) {
      assert.ok(
        fast(await token(header, claim), now),
        `${JSON.stringify(header)} ${JSON.stringify(claim)}`,
      );
    }
  }
  assert.ok(taken >= 9);
});

Deno.test("the HS256 fast path leaves malformed tokens to jose", () => {
  for (const value of ["", "a.b", "a.b.c.d", "..", "e30.e30.", "e30.e30.A"]) {
    assert.equal(fast(value, now), undefined, value);
  }
});

/** Base64url of UTF-8 bytes (the claims of a token, as a signer encodes them). */
const encodeUtf8 = (value: unknown) =>
  encode(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))));

Deno.test("the HS256 fast path decodes base64url as jose does: UTF-8 claims, large payloads, and altered encodings", async () => {
  const header = encode({ alg: "HS256" });
  const unicode = await signedOver(`${header}.${encodeUtf8({ ...valid, sub: "Zoë 医生 🩺" })}`);
  const large = await signedOver(
    `${header}.${encodeUtf8({ ...valid, roles: Array.from({ length: 400 }, (_, i) => `r${i}`) })}`,
  );
  // Both are taken by the fast path (the large one past its 2 KiB scratch buffer), as jose reads them.
  for (const value of [unicode, large]) {
    const decided = fast(value, now);
    assert.ok(decided, value.slice(0, 40));
    assert.deepEqual(decided, await jose(value));
  }
  const plain = await signedOver(`${header}.${encode(valid)}`);
  const [head, body, signature] = plain.split(".") as [string, string, string];
  const altered = [
    `${head}.${body}.${signature}=`,
    `${head}.${body}.${signature}A`,
    `${head}.${body}.${signature.slice(0, -1)}`,
    `${head}.${body}.${signature.replaceAll("-", "+").replaceAll("_", "/")}`,
    `${head}.${body}.${signature.slice(0, 10)}é${signature.slice(11)}`,
    `${head}.${body.slice(0, 5)}é${body.slice(6)}.${signature}`,
    // Signed over text holding a character past ASCII: jose signs its UTF-8, never decided here.
    await signedOver(`${header}.${encode(valid)}é`),
    await signedOver(`${header}.${body.replaceAll("-", "+").replaceAll("_", "/")}`),
    await signedOver(`${header}.${body}==`),
  ];
  for (const value of altered) {
    const decided = fast(value, now);
    if (decided !== undefined) assert.deepEqual(decided, await jose(value), value);
  }
  // A signed text past ASCII is always left to jose.
  assert.equal(fast(altered[6]!, now), undefined);
});

Deno.test("the HS256 fast path takes what jose takes of far expiries and malformed claims: the authenticator's claim checks refuse them after either", async () => {
  for (
    const claims of [
      { ...valid, exp: 1e300 },
      { ...valid, tenants: "p1" },
      { ...valid, roles: [1] },
    ]
  ) {
    const value = await token({ alg: "HS256" }, claims);
    assert.deepEqual(fast(value, now), claims, JSON.stringify(claims));
    assert.deepEqual(await jose(value), claims);
  }
});
