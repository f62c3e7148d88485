import { SignJWT } from "jose";

/** Who issues the example's tokens, and for whom (checked by the JWT authenticator). */
export const tokenIssuer = "https://identity.scheduling.example";
/** The audience of the example's tokens. */
export const tokenAudience = "scheduling-api";

/** The claims of a token the example accepts. */
export interface TokenClaims {
  readonly sub: string;
  readonly roles?: readonly string[];
  readonly tenants?: readonly string[];
  readonly scope?: string;
}

/**
 * Signs an HS256 token the API accepts (for `deno task dev`'s sample token and for tests; a real
 * deployment verifies tokens of its identity provider instead).
 */
export async function signToken(
  secret: Uint8Array,
  claims: TokenClaims,
  options: { now?: Date; expiresInSeconds?: number } = {},
): Promise<string> {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(tokenIssuer)
    .setAudience(tokenAudience)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 3600))
    .sign(secret);
}
