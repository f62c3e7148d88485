import { ConceptError } from "./concept_error.ts";

/**
 * Refuses work on tenant-owned data that runs for no tenant: code `TENANT_REQUIRED` (HTTP 400).
 * A user's work runs for exactly one tenant (the one the request names, else the caller's only
 * tenant); a caller of several tenants who names none meets this refusal.
 */
export class TenantRequiredError extends ConceptError {
  /** Builds the refusal, naming what needed a tenant. */
  constructor(
    message = "This work needs a tenant: name one (the caller belongs to several, or to none)",
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super("refusal", "TENANT_REQUIRED", message, details);
    this.name = "TenantRequiredError";
  }
}

/**
 * Refuses a write made on a stale version of an aggregate: code `CONCURRENT_UPDATE` (HTTP 409).
 * Another unit of work changed the element after this one loaded it; nothing of this unit was
 * kept. The command bus sends the command again when it is declared `@RetryOnConflict`.
 */
export class ConcurrentUpdateError extends ConceptError {
  /** Builds the conflict, naming the element. */
  constructor(
    type: string,
    id: string,
    details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions,
  ) {
    super(
      "conflict",
      "CONCURRENT_UPDATE",
      `The ${type} '${id}' was changed by other work meanwhile: load it again and retry`,
      { type, id, ...details },
      options,
    );
    this.name = "ConcurrentUpdateError";
  }

  /** The conflict of a transaction the database could not serialise (or a deadlock). */
  static ofTransaction(cause: unknown): ConcurrentUpdateError {
    const error = new ConcurrentUpdateError("data", "", {}, { cause });
    error.message = "Other work changed the same data meanwhile: nothing was kept, retry";
    return error;
  }
}

/**
 * Refuses a value that passed validation but that the store cannot hold (text with a NUL
 * character, a date out of the database's range, a key too large for an index): code
 * `INVALID_INPUT` (HTTP 422). Stores translate their errors into it (see
 * `PostgresTransactions.translateError`) so that such input never answers 500.
 */
export class InvalidInputError extends ConceptError {
  /** Builds the refusal. */
  constructor(
    message = "A value of the request cannot be stored",
    details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions,
  ) {
    super("refusal", "INVALID_INPUT", message, details, options);
    this.name = "InvalidInputError";
  }
}

/** What {@linkcode ServiceUnavailableError} says about the outage. */
export interface ServiceUnavailableOptions {
  /** When the caller may try again, in whole seconds (HTTP `Retry-After`); default 5. */
  readonly retryAfterSeconds?: number;
  /** Why, in a few words for people (`"connection refused"`); never a host, a port or a query. */
  readonly reason?: string;
  /** The error of the store or the client that was met. */
  readonly cause?: unknown;
}

/**
 * Refuses work because a service it needs (the database, the job store) cannot be reached or did
 * not answer in time: code `SERVICE_UNAVAILABLE` (HTTP 503, with `Retry-After`). Nothing is wrong
 * with the request: the same request may succeed later. Stores translate their connection errors
 * and time-outs into it (see `PostgresTransactions.translateError`), so that an outage answers
 * 503 at once instead of hanging or answering 500. A write refused this way may still have
 * committed (the connection was lost during COMMIT): retry it with the same `Idempotency-Key`.
 *
 * @example
 * ```ts
 * import { ServiceUnavailableError } from "@kit/kernel";
 * const error = new ServiceUnavailableError("database", { reason: "connection refused" });
 * error.code; // "SERVICE_UNAVAILABLE"
 * error.retryAfterSeconds; // 5
 * ```
 */
export class ServiceUnavailableError extends ConceptError {
  /** When the caller may try again, in whole seconds. */
  readonly retryAfterSeconds: number;

  /** Builds the refusal, naming the service (`"database"`) and why. */
  constructor(service: string, options: ServiceUnavailableOptions = {}) {
    const retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds ?? 5));
    const why = options.reason === undefined ? "" : ` (${options.reason})`;
    super(
      "refusal",
      "SERVICE_UNAVAILABLE",
      `The ${service} is unavailable${why}: retry in ${retryAfterSeconds} s`,
      {
        service,
        retryAfterSeconds,
        ...(options.reason === undefined ? {} : { reason: options.reason }),
      },
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "ServiceUnavailableError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The HTTP status of the codes kit itself answers: `TENANT_REQUIRED` 400, `CONCURRENT_UPDATE`
 * 409, `INVALID_INPUT` 422, `SERVICE_UNAVAILABLE` 503, and those of idempotency keys (`IDEMPOTENCY_KEY_REQUIRED` and
 * `IDEMPOTENCY_KEY_INVALID` 400, `IDEMPOTENCY_KEY_IN_USE` 409, `IDEMPOTENCY_KEY_REUSED` 422).
 * A project's own mapping of a code wins.
 */
export const kernelStatusByCode: Readonly<Record<string, number>> = Object.freeze({
  TENANT_REQUIRED: 400,
  CONCURRENT_UPDATE: 409,
  INVALID_INPUT: 422,
  SERVICE_UNAVAILABLE: 503,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
});
