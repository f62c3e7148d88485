import { isRefusal } from "../errors/concept_error.ts";
import {
  ConcurrentUpdateError,
  InvalidInputError,
  ServiceUnavailableError,
} from "../errors/kernel_refusals.ts";
import {
  postgresClientFailureReasons,
  postgresServerFailureReasons,
  socketFailureReasons,
} from "../errors/known_failure.ts";

/** The SQLSTATE of a postgres.js error, when it is one. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** How {@linkcode translatePostgresError} answers an outage. */
export interface PostgresErrorOptions {
  /** The `Retry-After` of a `SERVICE_UNAVAILABLE`, in seconds (default 5). */
  readonly retryAfterSeconds?: number;
}

/**
 * Turns a PostgreSQL error into the refusal its caller understands (see
 * `PostgresTransactions.translateError`): the database out of reach or too slow
 * ({@linkcode postgresUnavailability}) into `SERVICE_UNAVAILABLE` (503), input it cannot hold
 * into `INVALID_INPUT` (422), a serialization failure or a deadlock into `CONCURRENT_UPDATE`
 * (409). Answers any other error unchanged.
 *
 * @example
 * ```ts ignore
 * try { await sql`insert into notes values (${text})`; }
 * catch (error) { throw translatePostgresError(error); } // text with NUL: INVALID_INPUT
 * ```
 */
export function translatePostgresError(
  error: unknown,
  options: PostgresErrorOptions = {},
): unknown {
  if (isRefusal(error)) return error;
  const unavailable = postgresUnavailability(error);
  if (unavailable !== undefined) {
    return new ServiceUnavailableError("database", {
      reason: unavailable,
      cause: error,
      ...(options.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: options.retryAfterSeconds }),
    });
  }
  const state = sqlState(error);
  if (state === undefined) return error;
  if (state.startsWith("22") || state === "54000") {
    return new InvalidInputError(
      `A value of the request cannot be stored: ${inputProblem(state)}`,
      { sqlState: state },
      { cause: error },
    );
  }
  if (state === "40001" || state === "40P01") {
    return ConcurrentUpdateError.ofTransaction(error);
  }
  return error;
}

// What postgres.js (and the socket under it) throws when the server cannot be reached, closed
// the connection, or a time-out of the client ran out; and the SQLSTATEs of a server going away
// or too slow (class 08 and 53 are read by their class).
const clientCodes: Readonly<Record<string, string>> = {
  ...socketFailureReasons,
  ...postgresClientFailureReasons,
};
const serverStates = postgresServerFailureReasons;

/**
 * Why the database is out of reach, when the error says so, else undefined: a connection that
 * could not be made or was lost (SQLSTATE class 08, `ECONNREFUSED`, `ECONNRESET`,
 * `CONNECTION_CLOSED`, `CONNECT_TIMEOUT`, ...), no connection of the pool free within
 * `acquire_timeout` (`ACQUIRE_TIMEOUT`), no answer within `query_timeout` (`QUERY_TIMEOUT`),
 * the server shutting down or starting (57P01-57P03), out of resources (class 53: too many
 * connections, disk full, out of memory), or a statement or lock time-out (57014, 55P03). Follows `cause` a few levels deep.
 *
 * @example
 * ```ts
 * import { postgresUnavailability } from "@kit/kernel/postgres";
 * postgresUnavailability({ code: "ECONNREFUSED" }); // "connection refused"
 * postgresUnavailability({ code: "23505" }); // undefined: a unique violation is no outage
 * ```
 */
export function postgresUnavailability(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 4; depth++) {
    if (typeof current !== "object" || current === null) return undefined;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      const reason = clientCodes[code] ?? serverStates[code];
      if (reason !== undefined) return reason;
      if (code.startsWith("08") && code.length === 5 && code !== "08P01") {
        return "connection failed";
      }
      if (code.startsWith("53") && code.length === 5) {
        return code === "53300" ? "too many connections" : "server out of resources";
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function inputProblem(state: string): string {
  switch (state) {
    case "22021":
    case "22P05":
      return "text with a character the database cannot hold (a NUL character?)";
    case "22003":
      return "a number out of range";
    case "22008":
    case "22007":
      return "a date or time out of range";
    case "22001":
      return "a text too long";
    case "54000":
      return "a value too large (an identifier or key too long?)";
    case "22P02":
      return "a value of the wrong form";
    default:
      return "an invalid value";
  }
}
