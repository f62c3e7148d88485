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
  /** Resolves the caller, if any. */
  authenticate(request: Request): Promise<Caller | undefined> | Caller | undefined;
}
