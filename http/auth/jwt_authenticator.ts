import { type Actor, type Clock, type Session, userActor } from "@kit/kernel";
import { systemClock } from "@kit/kernel/internal";
import { type JWTPayload, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Authenticator, Caller } from "../pipeline/authenticator.ts";
import { InvalidTokenError } from "./invalid_token_error.ts";
import { hs256FastPath } from "./hs256_fast_path.ts";
import { tokenRefusal } from "./token_refusal.ts";
import { checkTokenClaims, defaultMaxTokenLifetimeSeconds, stringsClaim } from "./token_claims.ts";
import { VerifiedTokens } from "./verified_tokens.ts";

/** The options of {@linkcode jwtAuthenticator}. */
export interface JwtAuthenticatorOptions {
  /** The verification key: a secret, a public key, or a key set (`createRemoteJWKSet`). */
  readonly key: CryptoKey | Uint8Array | JWTVerifyGetKey;
  /** The accepted algorithms (`alg: none` is never accepted). */
  readonly algorithms: readonly string[];
  /** The expected issuer(s) (`iss`). */
  readonly issuer: string | readonly string[];
  /** The expected audience(s) (`aud`). */
  readonly audience: string | readonly string[];
  /**
   * How far the issuer's clock may be from ours, in seconds (default 5): a token is still
   * accepted that far past its `exp`, and that far before its `nbf` or `iat`.
   */
  readonly clockToleranceSeconds?: number;
  /**
   * Whether a token must carry `exp` (default `true`). `false` accepts a token without one, which
   * is then valid for ever: a leaked token can never be refused but by rotating the key. Unsafe;
   * only for an issuer that cannot set `exp`. A token without `exp` is never kept in
   * `verifiedTokens`.
   */
  readonly requireExpiry?: boolean;
  /**
   * The longest a token may live, in seconds (default 86400, 24 hours): `exp - iat`, or
   * `exp - now` for a token without `iat`; a token above it is refused (401, "The token lives
   * longer than the 86400 s allowed"), so a signed token with a far `exp` is not valid for ever.
   * `Infinity` turns the check off (unsafe: a leaked long-lived token stays valid).
   */
  readonly maxTokenLifetimeSeconds?: number;
  /** The clock that decides expiry (default: the system clock). */
  readonly clock?: Clock;
  /**
   * Builds the actor from the verified claims (default: `sub`, `roles`, `tenants`). Called on
   * every request; the claims object may be shared by the requests that bear the same token (see
   * `verifiedTokens`), so read it, never change it.
   */
  readonly actor?: (claims: JWTPayload) => Actor;
  /**
   * How many verified tokens are kept (default 1000; 0 keeps none), with a static `key` only: a
   * request bearing a token byte for byte identical to one verified before skips the signature
   * and claim checks, which would answer the same, and only redoes the time checks (`exp`,
   * `nbf`, with the tolerance and the clock). A token leaves at its `exp`, or when the cache is
   * full and it is the oldest; a token without `exp` is never kept. With a key set (a function)
   * nothing is kept, since the set may drop a key.
   */
  readonly verifiedTokens?: number;
  /**
   * The security scheme it reads, as the document's `securitySchemes` names it (default
   * `bearer`): routes requiring another scheme do not run it.
   */
  readonly scheme?: string;
}

/**
 * Resolves the caller from an `Authorization: Bearer <JWT>` header with jose: signature,
 * algorithm, issuer, audience and time are checked (`exp` required and not past, `nbf` and `iat`
 * not in the future, each with `clockToleranceSeconds`), `alg: none` is refused, a token living
 * longer than `maxTokenLifetimeSeconds` (24 hours by default) is refused, so are malformed claims
 * (`exp`, `iat`, `nbf` not finite numbers, `sub` not a string; for the default actor, `roles` or
 * `tenants` not lists of strings), and the session's scopes come from the `scope` (space-separated) or `scp` claim. A request without the
 * header is anonymous; a token that fails any check throws {@linkcode InvalidTokenError}: a 401
 * (`UNAUTHORIZED`) whose detail says what was wrong ("The token has expired", "The token's
 * signature does not verify") and whose `WWW-Authenticate` challenge says `invalid_token`. An
 * HMAC secret is imported once per algorithm, and a token verified before is recognised without
 * verifying it again (see `verifiedTokens`). With a static secret, a plain HS256 token is verified
 * synchronously (HMAC-SHA256 without WebCrypto's round trip, then the same claim checks), and
 * accepted only when jose would accept it; any other token, or one that fails a check, is left
 * to jose, which gives the reason.
 *
 * @example
 * ```ts ignore
 * httpPlugin({
 *   authenticators: [jwtAuthenticator({
 *     key: new TextEncoder().encode(Deno.env.get("JWT_SECRET")),
 *     algorithms: ["HS256"], issuer: "https://id.example", audience: "scheduling",
 *   })],
 * });
 * ```
 */
export function jwtAuthenticator(options: JwtAuthenticatorOptions): Authenticator {
  const algorithms = [...options.algorithms];
  if (algorithms.length === 0 || algorithms.some((a) => a.toLowerCase() === "none")) {
    throw new TypeError("jwtAuthenticator() needs algorithms, and never 'none'");
  }
  const clock = options.clock ?? systemClock;
  const toActor = options.actor ?? defaultActor;
  const tolerance = options.clockToleranceSeconds ?? 5;
  if (!(tolerance >= 0 && tolerance < Infinity)) {
    throw new TypeError(
      `jwtAuthenticator() clockToleranceSeconds must be a number of seconds >= 0, got ${tolerance}`,
    );
  }
  const maxLifetime = options.maxTokenLifetimeSeconds ?? defaultMaxTokenLifetimeSeconds;
  if (!(maxLifetime > 0)) {
    throw new TypeError(
      `jwtAuthenticator() maxTokenLifetimeSeconds must be a number of seconds > 0, got ${maxLifetime}`,
    );
  }
  const verifyOptions = {
    algorithms,
    issuer: typeof options.issuer === "string" ? options.issuer : [...options.issuer],
    audience: typeof options.audience === "string" ? options.audience : [...options.audience],
    clockTolerance: tolerance,
    ...(options.requireExpiry === false ? {} : { requiredClaims: ["exp"] }),
  };
  const key = verificationKey(options.key);
  // HS256 with a static secret: verified synchronously when the token is plain (see the path).
  const fast = options.key instanceof Uint8Array && algorithms.includes("HS256")
    ? hs256FastPath(options.key, {
      issuer: verifyOptions.issuer,
      audience: verifyOptions.audience,
      toleranceSeconds: tolerance,
      requireExpiry: options.requireExpiry !== false,
    })
    : undefined;
  const verified = new VerifiedTokens(
    typeof options.key === "function" ? 0 : options.verifiedTokens ?? 1000,
  );
  const callerOf = (payload: JWTPayload): Caller => {
    // Assigned in place (the same keys, in the same order, as spreads would give): no copies.
    const session: { scopes: ReadonlySet<string>; id?: string; expiresAt?: Date } = {
      scopes: scopesOf(payload),
    };
    if (typeof payload.jti === "string") session.id = payload.jti;
    if (typeof payload.exp === "number") session.expiresAt = new Date(payload.exp * 1000);
    return { actor: toActor(payload), session: session as Session };
  };
  /** The caller of a token whose claims verified (kept for the next request that bears it). */
  const accepted = (token: string, payload: JWTPayload, now: number): Caller => {
    // jose checks `iat` only against a maximum age; a token issued in the future is refused here.
    if (issuedInFuture(payload, now, tolerance)) throw inFuture();
    checkTokenClaims(payload, now, maxLifetime);
    const caller = callerOf(payload);
    verified.set(token, payload);
    return caller;
  };
  /** A token the fast path left: jose decides, asynchronously. */
  const verifyWithJose = async (token: string, now: Date): Promise<Caller> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key as CryptoKey, {
        ...verifyOptions,
        currentDate: now,
      }));
    } catch (error) {
      throw tokenRefusal(error);
    }
    return accepted(token, payload, Math.floor(now.getTime() / 1000));
  };
  /** Verifies a token: synchronously on the fast path, else through jose. */
  const verify = (token: string): Promise<Caller> | Caller => {
    const now = clock.now();
    const seconds = Math.floor(now.getTime() / 1000);
    const checked = fast?.(token, seconds);
    if (checked === undefined) return verifyWithJose(token, now);
    try {
      return accepted(token, checked, seconds);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return {
    scheme: options.scheme ?? "bearer",
    authenticate(request: Request): Promise<Caller | undefined> | Caller | undefined {
      const header = request.headers.get("authorization");
      if (header === null) return undefined;
      const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\s*$/i.exec(header);
      if (match === null) {
        return Promise.reject(
          new InvalidTokenError("The Authorization header is not a bearer token"),
        );
      }
      const token = match[1]!;
      // An empty cache (or one turned off) is not asked: hashing the token costs.
      const known = verified.size === 0 ? undefined : verified.get(token);
      if (known !== undefined) {
        // The same time checks as on a first verification, on the same clock: a token past them
        // is verified again (and refused with the reason).
        const now = Math.floor(clock.now().getTime() / 1000);
        const exp = known.exp!;
        const nbf = known.nbf;
        if (
          exp > now - tolerance && (nbf === undefined || nbf <= now + tolerance) &&
          !issuedInFuture(known, now, tolerance)
        ) {
          try {
            return callerOf(known);
          } catch (error) {
            return Promise.reject(error);
          }
        }
        verified.delete(token);
      }
      return verify(token);
    },
  };
}

/**
 * The key given to jose: an HMAC secret is imported once per HS algorithm (jose imports a raw
 * secret on every verification); any other key is given as it is.
 */
function verificationKey(
  key: CryptoKey | Uint8Array | JWTVerifyGetKey,
): CryptoKey | Uint8Array | JWTVerifyGetKey {
  if (!(key instanceof Uint8Array)) return key;
  const imported = new Map<string, Promise<CryptoKey>>();
  return function hmacKey(header): Promise<CryptoKey> | Uint8Array {
    const hash = typeof header.alg === "string" ? hmacHashes.get(header.alg) : undefined;
    if (hash === undefined) return key;
    let found = imported.get(header.alg!);
    if (found === undefined) {
      found = crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash }, false, [
        "verify",
      ]);
      imported.set(header.alg!, found);
    }
    return found;
  };
}

const hmacHashes: ReadonlyMap<string, string> = new Map([
  ["HS256", "SHA-256"],
  ["HS384", "SHA-384"],
  ["HS512", "SHA-512"],
]);

function issuedInFuture(claims: JWTPayload, now: number, tolerance: number): boolean {
  return typeof claims.iat === "number" && claims.iat > now + tolerance;
}

function inFuture(): InvalidTokenError {
  return new InvalidTokenError("The token was issued in the future (iat)");
}

function defaultActor(claims: JWTPayload): Actor {
  if (typeof claims.sub !== "string" || claims.sub.length === 0) {
    throw new InvalidTokenError("The token has no subject (sub)");
  }
  return userActor(claims.sub, {
    roles: stringsClaim(claims, "roles"),
    tenants: stringsClaim(claims, "tenants"),
  });
}

function scopesOf(claims: JWTPayload): ReadonlySet<string> {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === "string") return new Set(raw.split(" ").filter((s) => s.length > 0));
  if (Array.isArray(raw)) return new Set(raw.filter((s): s is string => typeof s === "string"));
  return new Set();
}
