import {
  type Actor,
  type Clock,
  type Session,
  systemClock,
  UnauthorizedError,
  userActor,
} from "@kit/kernel";
import { errors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Authenticator, Caller } from "../pipeline/authenticator.ts";
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
  /** Tolerance for `exp` and `nbf`, in seconds (default 5). */
  readonly clockToleranceSeconds?: number;
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
}

/**
 * Resolves the caller from an `Authorization: Bearer <JWT>` header with jose: signature,
 * expiry, issuer and audience are checked, `alg: none` is refused, and the session's scopes come
 * from the `scope` (space-separated) or `scp` claim. A request without the header is anonymous;
 * a token that fails any check answers 401 (`UNAUTHORIZED`). An HMAC secret is imported once per
 * algorithm, and a token verified before is recognised without verifying it again (see
 * `verifiedTokens`).
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
  const verifyOptions = {
    algorithms,
    issuer: typeof options.issuer === "string" ? options.issuer : [...options.issuer],
    audience: typeof options.audience === "string" ? options.audience : [...options.audience],
    clockTolerance: tolerance,
  };
  const key = verificationKey(options.key);
  const verified = new VerifiedTokens(
    typeof options.key === "function" ? 0 : options.verifiedTokens ?? 1000,
  );
  const callerOf = (payload: JWTPayload): Caller => {
    const session: Session = {
      scopes: scopesOf(payload),
      ...(typeof payload.jti === "string" ? { id: payload.jti } : {}),
      ...(typeof payload.exp === "number" ? { expiresAt: new Date(payload.exp * 1000) } : {}),
    };
    return { actor: toActor(payload), session };
  };
  const verify = async (token: string): Promise<Caller> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key as CryptoKey, {
        ...verifyOptions,
        currentDate: clock.now(),
      }));
    } catch (error) {
      throw new UnauthorizedError(`The bearer token is refused: ${reason(error)}`);
    }
    const caller = callerOf(payload);
    verified.set(token, payload);
    return caller;
  };
  return {
    authenticate(request: Request): Promise<Caller | undefined> | Caller | undefined {
      const header = request.headers.get("authorization");
      if (header === null) return undefined;
      const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\s*$/i.exec(header);
      if (match === null) {
        return Promise.reject(
          new UnauthorizedError("The Authorization header is not a bearer token"),
        );
      }
      const token = match[1]!;
      const known = verified.get(token);
      if (known !== undefined) {
        // The same checks as jose's, on the same clock: a token past them is verified again.
        const now = Math.floor(clock.now().getTime() / 1000);
        const exp = known.exp!;
        const nbf = known.nbf;
        if (exp > now - tolerance && (nbf === undefined || nbf <= now + tolerance)) {
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

function defaultActor(claims: JWTPayload): Actor {
  if (typeof claims.sub !== "string" || claims.sub.length === 0) {
    throw new UnauthorizedError("The bearer token has no subject");
  }
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  return userActor(claims.sub, { roles: strings(claims.roles), tenants: strings(claims.tenants) });
}

function scopesOf(claims: JWTPayload): ReadonlySet<string> {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === "string") return new Set(raw.split(" ").filter((s) => s.length > 0));
  if (Array.isArray(raw)) return new Set(raw.filter((s): s is string => typeof s === "string"));
  return new Set();
}

function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "it has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    return `claim '${error.claim}' is not accepted`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "its algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return "its signature does not verify";
  }
  if (error instanceof errors.JOSEError) return error.code;
  return "it cannot be read";
}
