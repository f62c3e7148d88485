import { SignJWT } from "jose";
import { type PlatformConfig, readConfig } from "../config.ts";

/** The claims of a token: the actor (`sub`), its roles and tenants, its scopes. */
export interface TokenClaims {
  readonly sub: string;
  readonly roles?: readonly string[];
  readonly tenants?: readonly string[];
  readonly scope?: string;
}

/**
 * Signs an HS256 token the API accepts, valid one hour from `now` (for development and tests;
 * a deployment verifies the tokens of its identity provider), with the issuer and audience of
 * `authority` (default: the project's, `<project>-identity` and `<project>-api`). Specs on a
 * test clock sign at its time (`now`: `clock.now()`), so that the API's clock finds it valid.
 */
export async function signToken(
  secret: Uint8Array,
  claims: TokenClaims,
  authority: Pick<PlatformConfig, "tokenIssuer" | "tokenAudience"> = readConfig({}),
  now: Date = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(authority.tokenIssuer)
    .setAudience(authority.tokenAudience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .sign(secret);
}
