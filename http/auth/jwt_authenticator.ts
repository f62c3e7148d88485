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
  /** Builds the actor from the verified claims (default: `sub`, `roles`, `tenants`). */
  readonly actor?: (claims: JWTPayload) => Actor;
}

/**
 * Resolves the caller from an `Authorization: Bearer <JWT>` header with jose: signature,
 * expiry, issuer and audience are checked, `alg: none` is refused, and the session's scopes come
 * from the `scope` (space-separated) or `scp` claim. A request without the header is anonymous;
 * a token that fails any check answers 401 (`UNAUTHORIZED`).
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
  const verifyOptions = {
    algorithms,
    issuer: typeof options.issuer === "string" ? options.issuer : [...options.issuer],
    audience: typeof options.audience === "string" ? options.audience : [...options.audience],
    clockTolerance: options.clockToleranceSeconds ?? 5,
  };
  return {
    async authenticate(request: Request): Promise<Caller | undefined> {
      const header = request.headers.get("authorization");
      if (header === null) return undefined;
      const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\s*$/i.exec(header);
      if (match === null) {
        throw new UnauthorizedError("The Authorization header is not a bearer token");
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(match[1]!, options.key as CryptoKey, {
          ...verifyOptions,
          currentDate: clock.now(),
        }));
      } catch (error) {
        throw new UnauthorizedError(`The bearer token is refused: ${reason(error)}`);
      }
      const session: Session = {
        scopes: scopesOf(payload),
        ...(typeof payload.jti === "string" ? { id: payload.jti } : {}),
        ...(typeof payload.exp === "number" ? { expiresAt: new Date(payload.exp * 1000) } : {}),
      };
      return { actor: toActor(payload), session };
    },
  };
}

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
