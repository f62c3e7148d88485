/**
 * The checks kit makes on a verified token's claims, beyond the signature and jose's: the time
 * claims finite numbers, the subject a string, the token's lifetime within the maximum, and (for
 * the default actor) `roles` and `tenants` lists of strings. A malformed claim is refused, never
 * read as absent: `tenants: "p1"` is not "no tenants". Internal to the JWT authenticator, which
 * runs them on both verification paths (HS256's fast path and jose) before a token is accepted
 * or kept among the verified ones.
 *
 * @module
 */
import type { JWTPayload } from "jose";
import { InvalidTokenError } from "./invalid_token_error.ts";

/** The maximum lifetime of a token by default: 24 hours, in seconds. */
export const defaultMaxTokenLifetimeSeconds = 86_400;

const timeClaims = [["exp", "expiry"], ["iat", "issue time"], [
  "nbf",
  "start of validity",
]] as const;

/**
 * Refuses a token whose claims are malformed or that lives longer than `maxLifetime` seconds:
 * `exp - iat`, or `exp - now` when it has no `iat` (`Infinity` checks no lifetime).
 */
export function checkTokenClaims(claims: JWTPayload, now: number, maxLifetime: number): void {
  for (let i = 0; i < timeClaims.length; i++) {
    const name = timeClaims[i]![0];
    const value = claims[name];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value))) {
      throw new InvalidTokenError(
        `The token's ${timeClaims[i]![1]} (${name}) is not a finite number`,
      );
    }
  }
  if (claims.sub !== undefined && typeof claims.sub !== "string") {
    throw new InvalidTokenError("The token's subject (sub) is not a string");
  }
  if (claims.exp !== undefined && maxLifetime !== Infinity) {
    const lifetime = claims.exp - (claims.iat ?? now);
    if (lifetime > maxLifetime) {
      throw new InvalidTokenError(
        `The token lives longer than the ${maxLifetime} s allowed (${
          claims.iat === undefined ? "exp - now" : "exp - iat"
        } is ${lifetime} s)`,
      );
    }
  }
}

/** A claim that must be a list of strings when present: the list, or a refusal saying so. */
export function stringsClaim(claims: JWTPayload, name: string): string[] {
  const value = claims[name];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new InvalidTokenError(`The token's ${name} claim is not a list of strings`);
  }
  return value;
}
