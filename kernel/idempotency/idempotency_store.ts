import { type Token, token } from "../composition/token.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";

/** The answer kept for an idempotency key, replayed to a retry of the same request. */
export interface KeptAnswer {
  /** The status answered. */
  readonly status: number;
  /** The body answered: a JSON value, or text. */
  readonly body?: unknown;
  /** The headers the handler set. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Where a request's idempotency key is claimed and its answer kept. */
export interface IdempotencyKeyParams {
  /** Whose key it is: the route, the caller and the tenant (keys are never shared). */
  readonly scope: string;
  /** The `Idempotency-Key` the client sent. */
  readonly key: string;
  /** A digest of the request (params, query, body): the same key with another request is refused. */
  readonly fingerprint: string;
  /** The unit of work of the request's use case: the answer is kept in it. */
  readonly unit: UnitOfWork;
  /** The time of the request. */
  readonly now: Date;
}

/** What a claim of an idempotency key found. */
export type IdempotencyClaim =
  /** No answer is kept for the key: run the request, then {@linkcode IdempotencyStore.keep}. */
  | { readonly outcome: "new" }
  /** The same request was answered before: answer this again. */
  | { readonly outcome: "replay"; readonly answer: KeptAnswer }
  /** The key was used for another request (another body, params or query). */
  | { readonly outcome: "mismatch" }
  /** The first request with this key is still being answered. */
  | { readonly outcome: "in-flight" };

/**
 * Keeps the first answer to a request sent with an `Idempotency-Key` (the IETF draft's header),
 * in the same unit of work as the request's use case: when the use case commits, the answer is
 * kept with it; when it rolls back, nothing is. Implementations: {@linkcode InMemoryIdempotencyStore},
 * `PostgresIdempotencyStore` (`@kit/kernel/postgres`).
 */
export interface IdempotencyStore {
  /**
   * Claims the key for the unit of work: answers what is kept for it (kept answers older than
   * `expiresBefore` are forgotten), or `in-flight` while another unit holds it.
   */
  claim(params: IdempotencyKeyParams & { readonly expiresBefore: Date }): Promise<IdempotencyClaim>;
  /** Keeps the answer of a claimed key in the unit of work. */
  keep(params: IdempotencyKeyParams & { readonly answer: KeptAnswer }): Promise<void>;
  /** Lets go of a claim once its unit of work has ended (committed or rolled back). */
  release(params: { readonly scope: string; readonly key: string }): void;
  /** Deletes the kept answers older than the instant; answers how many. */
  purgeExpired(before: Date): Promise<number>;
}

/** The token of the idempotency store. */
export const IdempotencyStore: Token<IdempotencyStore> = token<IdempotencyStore>(
  "IdempotencyStore",
);
