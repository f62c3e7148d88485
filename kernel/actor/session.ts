/**
 * The scope vocabulary of a project. Empty in the kernel: a project augments it, so that a
 * misspelt scope in `HasScope` does not compile.
 *
 * @example Declare the scopes of a project
 * ```ts ignore
 * declare module "@kit/kernel" {
 *   interface SessionScopes {
 *     "calendars:read": true;
 *     "calendars:write": true;
 *   }
 * }
 * ```
 */
// deno-lint-ignore no-empty-interface
export interface SessionScopes {}

/** A scope name of the project's vocabulary. */
export type SessionScope = keyof SessionScopes & string;

/** The session of a caller: what a client application was granted for the user. */
export interface Session {
  /** The id of the session or token, when the authenticator knows one. */
  readonly id?: string;
  /** The scopes granted (filled from the `scope` or `scp` claim by the token authenticators). */
  readonly scopes: ReadonlySet<string>;
  /** When the session ends, when known. */
  readonly expiresAt?: Date;
}

/** Tells whether the session was granted every scope named. */
export function hasScopes(session: Session | undefined, scopes: readonly string[]): boolean {
  if (session === undefined) return scopes.length === 0;
  for (const scope of scopes) if (!session.scopes.has(scope)) return false;
  return true;
}
