import { isRefusal } from "./concept_error.ts";

/**
 * A failure kit knows and that is no bug: a service out of reach (`kind: "outage"`, retried once
 * it is back), or two transactions in conflict (`kind: "conflict"`: a deadlock or a serialization
 * failure, retried at once).
 */
export interface KnownFailure {
  /** Which. */
  readonly kind: "outage" | "conflict";
  /**
   * Its log code: `DATABASE_UNAVAILABLE`, `REDIS_UNAVAILABLE`, `SERVICE_UNAVAILABLE` (a socket
   * error whose service is unknown), or `CONCURRENT_UPDATE`.
   */
  readonly code: string;
  /** Why, in a few words (`"connection refused"`, `"deadlock"`). */
  readonly reason: string;
}

/** Why a socket failed, by its error code: a server out of reach or a connection lost. */
export const socketFailureReasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection lost",
  ECONNABORTED: "connection lost",
  EPIPE: "connection lost",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENETDOWN: "network unreachable",
  EHOSTDOWN: "host unreachable",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EADDRNOTAVAIL: "connection refused",
  ERR_STREAM_DESTROYED: "connection lost",
  ERR_SOCKET_CLOSED: "connection lost",
};
/** Why postgres.js failed a statement, by its code: a connection lost or a time-out of the client. */
export const postgresClientFailureReasons: Readonly<Record<string, string>> = {
  CONNECTION_CLOSED: "connection lost",
  CONNECTION_DESTROYED: "connection lost",
  CONNECTION_ENDED: "client closed",
  CONNECT_TIMEOUT: "connect time-out",
  ACQUIRE_TIMEOUT: "no connection free in time",
  QUERY_TIMEOUT: "no answer in time",
};
/** SQLSTATEs of a server going away, ending a session, or a statement or lock time-out. */
export const postgresServerFailureReasons: Readonly<Record<string, string>> = {
  "57P01": "server shutting down",
  "57P02": "server crashed",
  "57P03": "server starting or stopping",
  "57P05": "idle session ended",
  "25P03": "idle transaction ended",
  "57014": "statement time-out",
  "55P03": "lock time-out",
};
const socketCodes = socketFailureReasons;
const databaseCodes: Readonly<Record<string, string>> = {
  ...postgresClientFailureReasons,
  ...postgresServerFailureReasons,
  "53300": "too many connections",
};
// What ioredis throws while Redis is out of reach.
const redisMessages =
  /Connection is closed|enableOfflineQueue|MaxRetriesPerRequest|Command timed out|LOADING|Redis is unreachable|Redis did not answer/i;

/**
 * What an error is when kit knows it as no bug: a service out of reach or a conflict of two
 * transactions (see {@linkcode KnownFailure}), else undefined. Reads a `SERVICE_UNAVAILABLE`
 * refusal (its `service`), socket and postgres.js codes (`ECONNREFUSED`, `CONNECT_TIMEOUT`,
 * `ACQUIRE_TIMEOUT`), SQLSTATEs (class 08 and 53, 57P01-57P05, 57014, 55P03; 40001 and 40P01),
 * a `CONCURRENT_UPDATE` of a transaction, and Redis clients' messages; follows `cause` a few
 * levels deep.
 *
 * @example
 * ```ts
 * import { knownFailure } from "@kit/kernel/logging";
 * knownFailure(Object.assign(new Error("timeout"), { code: "CONNECT_TIMEOUT" }));
 * // { kind: "outage", code: "DATABASE_UNAVAILABLE", reason: "connect time-out" }
 * knownFailure(new TypeError("x is undefined")); // undefined: a bug
 * ```
 */
export function knownFailure(error: unknown): KnownFailure | undefined {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    if (typeof current !== "object" || current === null) return undefined;
    const found = knownAtThisLevel(current);
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function knownAtThisLevel(error: object): KnownFailure | undefined {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  const text = `${String(name ?? "")} ${String(message ?? "")}`;
  if (isRefusal(error, "SERVICE_UNAVAILABLE")) {
    const service = error.details.service;
    const reason = typeof error.details.reason === "string" ? error.details.reason : "unavailable";
    if (/redis/i.test(text)) return outage("REDIS_UNAVAILABLE", reason);
    if (typeof service === "string" && /^[a-z][a-z0-9 _-]*$/i.test(service)) {
      return outage(`${service.toUpperCase().replace(/[ -]/g, "_")}_UNAVAILABLE`, reason);
    }
    return outage("SERVICE_UNAVAILABLE", reason);
  }
  if (isRefusal(error, "CONCURRENT_UPDATE")) {
    // A transaction's conflict (ConcurrentUpdateError.ofTransaction): its cause says which.
    return conflictOf((error as { cause?: { code?: unknown } }).cause?.code);
  }
  if (typeof code === "string") {
    if (code === "40001" || code === "40P01") return conflictOf(code);
    const database = databaseCodes[code];
    if (database !== undefined) return outage("DATABASE_UNAVAILABLE", database);
    if (/^(08|53)[0-9A-Z]{3}$/.test(code) && code !== "08P01") {
      return outage(
        "DATABASE_UNAVAILABLE",
        code.startsWith("08") ? "connection failed" : "server out of resources",
      );
    }
    const socket = socketCodes[code];
    if (socket !== undefined) {
      return outage(/redis/i.test(text) ? "REDIS_UNAVAILABLE" : "SERVICE_UNAVAILABLE", socket);
    }
  }
  if (redisMessages.test(text)) return outage("REDIS_UNAVAILABLE", "unreachable");
  return undefined;
}

function outage(code: string, reason: string): KnownFailure {
  return { kind: "outage", code, reason };
}

function conflictOf(code: unknown): KnownFailure {
  return {
    kind: "conflict",
    code: "CONCURRENT_UPDATE",
    reason: code === "40P01"
      ? "deadlock"
      : code === "40001"
      ? "serialization failure"
      : "concurrent update",
  };
}
