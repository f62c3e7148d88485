import type { JWTPayload } from "jose";

/**
 * The claims of tokens already verified, keyed by the exact token text, kept until their `exp`
 * and at most `capacity` of them (the oldest entry leaves first). Only an authenticator with a
 * static key uses it: with a static key, a token's signature, algorithm, issuer and audience
 * verify the same way every time, so only the time checks (`nbf`, `exp`) are left to redo, and
 * the caller redoes them on every hit. A token without a numeric `exp` is never kept, nor one that
 * failed the authenticator's claim checks (a lifetime over the maximum, a malformed claim): they
 * run before a token is kept.
 */
export class VerifiedTokens {
  readonly #capacity: number;
  readonly #entries = new Map<string, JWTPayload>();

  /** A cache of at most `capacity` tokens (0 keeps none). */
  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The claims of a token verified before, if it is still kept. */
  get(token: string): JWTPayload | undefined {
    return this.#entries.get(token);
  }

  /** Keeps the claims of a verified token (not when it has no numeric `exp`). */
  set(token: string, claims: JWTPayload): void {
    if (this.#capacity === 0 || typeof claims.exp !== "number") return;
    if (this.#entries.size >= this.#capacity && !this.#entries.has(token)) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(token, claims);
  }

  /** Forgets a token (one whose time checks failed). */
  delete(token: string): void {
    this.#entries.delete(token);
  }

  /** How many tokens are kept. */
  get size(): number {
    return this.#entries.size;
  }
}
