import type { Actor, Session } from "@kit/kernel";

/** The caller a credential identifies. */
export interface Caller {
  /** Who. */
  readonly actor: Actor;
  /** The session and its scopes. */
  readonly session?: Session;
}

/**
 * Resolves the caller from a request. Answers `undefined` when the request carries no credential
 * it understands; throws `UnauthorizedError` for a credential it refuses (expired, bad
 * signature).
 */
export interface Authenticator {
  /**
   * The security scheme whose credential it reads, as the document's `securitySchemes` names it
   * (`bearer`, `apiKey`). A route that names its schemes (its guards' `documents.security`, a
   * function route's `security`, else the plugin's `security`) runs only the authenticators of
   * those schemes: a caller identified by another scheme is, for that route, no caller (401).
   * Without it, the authenticator runs for every closed route.
   */
  readonly scheme?: string;
  /** Resolves the caller, if any. */
  authenticate(request: Request): Promise<Caller | undefined> | Caller | undefined;
}
