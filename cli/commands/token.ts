import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { SignJWT } from "jose";
import { CliError } from "../cli_error.ts";
import { readRegion } from "../files/marker_regions.ts";
import { developmentSecret } from "../project/development_secret.ts";
import { findProjectRoot, readConfig } from "../project/kit_config.ts";

/** What `kit token` puts in a token. */
export interface TokenRequest {
  /** The actor (`sub`). */
  readonly sub: string;
  /** Its roles: each one the project grants (`src/platform/auth/role.ts`). */
  readonly roles: readonly string[];
  /** The tenants it belongs to. */
  readonly tenants: readonly string[];
  /** Its scopes (`scope`, space-separated). */
  readonly scopes: readonly string[];
  /** How long it is valid: `90s`, `30m`, `1h` (default), at most `24h` (the API refuses more). */
  readonly expires?: string;
}

const units: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };
/** The longest lifetime the generated API accepts (jwtAuthenticator's default). */
const maxLifetimeSeconds = 86_400;

/**
 * `kit token`: an HS256 token the project's API accepts, signed as the generated platform verifies
 * it: the secret `JWT_SECRET` (unset and no `DATABASE_URL`: the development secret
 * `deno task dev` uses), the issuer `JWT_ISSUER` or `<project>-identity`, the audience
 * `JWT_AUDIENCE` or `<project>-api`. Refuses a role the project does not grant (a typo would
 * give a token that can do nothing), and, with `DATABASE_URL` but no `JWT_SECRET`, any token (the
 * API then accepts none).
 */
export async function signProjectToken(
  cwd: string,
  request: TokenRequest,
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
  now: Date = new Date(),
): Promise<string> {
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  if (!/^[\w.@:-]{1,200}$/.test(request.sub)) {
    throw new CliError(
      `token: --sub '${request.sub}' must be 1-200 letters, digits or . _ @ : -`,
    );
  }
  const seconds = lifetimeSeconds(request.expires ?? "1h");
  await checkRoles(root, request.roles);
  const secret = env("JWT_SECRET");
  if (!secret && env("DATABASE_URL")) {
    throw new CliError(
      "token: JWT_SECRET is not set, and with DATABASE_URL the API then accepts no token; set JWT_SECRET for both",
    );
  }
  const issued = Math.floor(now.getTime() / 1000);
  return await new SignJWT({
    ...(request.roles.length > 0 ? { roles: [...request.roles] } : {}),
    ...(request.tenants.length > 0 ? { tenants: [...request.tenants] } : {}),
    ...(request.scopes.length > 0 ? { scope: request.scopes.join(" ") } : {}),
  })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(request.sub)
    .setIssuer(env("JWT_ISSUER") ?? `${config.name}-identity`)
    .setAudience(env("JWT_AUDIENCE") ?? `${config.name}-api`)
    .setIssuedAt(issued)
    .setExpirationTime(issued + seconds)
    .sign(new TextEncoder().encode(secret || developmentSecret));
}

/** `--expires` in seconds: a duration (90s, 30m, 1h, 1d) of at most the 24h the API accepts. */
function lifetimeSeconds(expires: string): number {
  const match = /^(\d{1,6})(s|m|h|d)$/.exec(expires);
  if (match === null || Number(match[1]) === 0) {
    throw new CliError(`token: --expires '${expires}' is not a duration (90s, 30m, 1h, 1d)`);
  }
  const seconds = Number(match[1]) * units[match[2]!]!;
  if (seconds > maxLifetimeSeconds) {
    throw new CliError(
      `token: --expires '${expires}' is longer than the 24h the API accepts (jwtAuthenticator's maxTokenLifetimeSeconds)`,
    );
  }
  return seconds;
}

/** Refuses a role the project does not grant (none is refused in a project without `role.ts`). */
async function checkRoles(root: string, roles: readonly string[]): Promise<void> {
  const granted = await grantedRoles(root);
  const unknown = granted === undefined ? [] : roles.filter((r) => !granted.includes(r));
  if (unknown.length > 0) {
    throw new CliError(
      `token: the project grants no role '${unknown[0]}' (its roles: ${
        granted!.join(", ") || "none"
      })`,
    );
  }
}

/** The roles `src/platform/auth/role.ts` grants, or undefined when the project has no such file. */
async function grantedRoles(root: string): Promise<string[] | undefined> {
  const path = "src/platform/auth/role.ts";
  if (!existsSync(join(root, path))) return undefined;
  const text = await readFile(join(root, path), "utf8");
  return readRegion(text, "grants", path).flatMap((entry) =>
    /^"?([^":]+)"?\s*:/.exec(entry)?.[1] ?? []
  );
}
