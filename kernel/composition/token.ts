// deno-lint-ignore-file no-explicit-any
/**
 * A key under which the composition root provides a value that is not a class (a port, a
 * setting). A class is its own key.
 *
 * @example A port and its token share one name
 * ```ts
 * import { token } from "@kit/kernel";
 * export interface ApiKeys { isActive(key: string): Promise<boolean> }
 * export const ApiKeys = token<ApiKeys>("ApiKeys");
 * ```
 */
export interface Token<T> {
  /** The name of the token, for messages. */
  readonly description: string;
  /** Carries the type only. */
  readonly __type?: T;
}

/** What a dependency is asked for by: a token, or a class. */
export type Injectable<T = unknown> = Token<T> | (abstract new (...args: any[]) => T);

/** Makes a token. Two tokens are different even when their descriptions are the same. */
export function token<T>(description: string): Token<T> {
  return Object.freeze({ description });
}

/** The name of a token or class, for messages. */
export function describeInjectable(key: Injectable): string {
  if (typeof key === "function") return key.name || "an anonymous class";
  return key.description;
}
