import type postgres from "postgres";
import { type Duration, toMilliseconds } from "../time/duration.ts";

/**
 * The time-outs and pool of a postgres.js client, in kit's words. Every one has a default that
 * turns an outage into a prompt `SERVICE_UNAVAILABLE` instead of a hang.
 */
export interface PostgresClientSettings {
  /** Connections in the pool (default 10). */
  readonly max?: number;
  /**
   * How long opening a connection may take before it fails with `CONNECT_TIMEOUT` (default
   * `"5s"`): a server that is down refuses at once, one that is unreachable costs this long.
   */
  readonly connectTimeout?: Duration;
  /**
   * How long a statement waits for a connection of the pool before it fails with
   * `ACQUIRE_TIMEOUT` (default `"5s"`): while the database is out of reach, or every connection
   * busy, work queues no longer than this. Needs kit's patched postgres.js (`vendor/postgres`);
   * upstream postgres.js ignores it and queues without limit.
   */
  readonly acquireTimeout?: Duration;
  /**
   * The server's `statement_timeout` on every connection (default `"15s"`; `0`: none). A
   * statement running longer is cancelled (57014, answered `SERVICE_UNAVAILABLE`). Run
   * migrations and long reports on a client of their own without it.
   */
  readonly statementTimeout?: Duration;
  /**
   * How long a statement sent may go without its answer before it fails with `QUERY_TIMEOUT`
   * and its connection is destroyed, never reused (default: `statementTimeout` plus 5 s, 20 s
   * with the defaults; none when `statementTimeout` is `0`; `0`: none). The client's own
   * deadline, for what `statement_timeout` cannot end: a server frozen or out of reach without
   * the connection closing, or a statement half-sent. Keep it above `statementTimeout`, so that
   * a slow statement is cancelled by the server (57014) first. Needs kit's patched postgres.js
   * (`vendor/postgres`).
   */
  readonly queryTimeout?: Duration;
  /**
   * The server's `idle_in_transaction_session_timeout` (default: none): a session idle inside a
   * transaction longer than this is ended, and its locks released.
   */
  readonly idleInTransactionTimeout?: Duration;
  /** Idle connections are closed after this long (default: kept). */
  readonly idleTimeout?: Duration;
  /**
   * The longest wait before a connection that failed is tried again (default `"1s"`; the wait
   * grows from 50 ms). postgres.js waits up to 20 s, so that work would wait that long after
   * the database is back.
   */
  readonly maxReconnectDelay?: Duration;
  /**
   * Further parameters of every connection (`search_path`, `application_name`), merged with the
   * time-outs above. Give them here rather than as `connection` after the spread, which would
   * replace the time-outs.
   */
  readonly connection?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * The postgres.js options of {@linkcode postgresClientOptions}: upstream's, and `acquire_timeout`
 * and `query_timeout` (seconds), which only kit's patched copy (`vendor/postgres`) knows.
 */
export type PostgresClientOptions =
  & postgres.Options<Record<string, postgres.PostgresType>>
  & { acquire_timeout?: number; query_timeout?: number };

/**
 * The postgres.js options with kit's time-outs (see {@linkcode PostgresClientSettings} for each
 * default): spread them into `postgres(url, ...)`, with options of your own after them.
 *
 * @example
 * ```ts ignore
 * import postgres from "postgres";
 * import { postgresClientOptions } from "@kit/kernel/postgres";
 * const sql = postgres(url, { ...postgresClientOptions({ statementTimeout: "30s" }), onnotice: () => {} });
 * ```
 */
export function postgresClientOptions(
  settings: PostgresClientSettings = {},
): PostgresClientOptions {
  const max = settings.max ?? 10;
  if (!Number.isInteger(max) || max < 1) {
    throw new RangeError(`A pool holds at least one connection, got max: ${max}`);
  }
  const maxDelay = seconds(settings.maxReconnectDelay ?? "1s", "maxReconnectDelay");
  const statementTimeout = toMilliseconds(settings.statementTimeout ?? "15s");
  const connection: Record<string, string | number | boolean> = {
    ...settings.connection,
    statement_timeout: statementTimeout,
  };
  if (settings.idleInTransactionTimeout !== undefined) {
    connection.idle_in_transaction_session_timeout = toMilliseconds(
      settings.idleInTransactionTimeout,
    );
  }
  const queryTimeout = settings.queryTimeout === undefined
    ? (statementTimeout > 0 ? (statementTimeout + 5_000) / 1000 : 0)
    : seconds(settings.queryTimeout, "queryTimeout");
  if (queryTimeout < 0) {
    throw new RangeError(`queryTimeout must be 0 or longer, got ${String(settings.queryTimeout)}`);
  }
  return {
    max,
    connect_timeout: positiveSeconds(settings.connectTimeout ?? "5s", "connectTimeout"),
    acquire_timeout: positiveSeconds(settings.acquireTimeout ?? "5s", "acquireTimeout"),
    ...(queryTimeout > 0 ? { query_timeout: queryTimeout } : {}),
    ...(settings.idleTimeout === undefined
      ? {}
      : { idle_timeout: positiveSeconds(settings.idleTimeout, "idleTimeout") }),
    backoff: (retries: number) => Math.min(maxDelay, 0.05 * 2 ** retries),
    connection,
  };
}

function seconds(duration: Duration, name: string): number {
  try {
    return toMilliseconds(duration) / 1000;
  } catch (error) {
    throw new RangeError(`${name}: ${(error as Error).message}`);
  }
}

function positiveSeconds(duration: Duration, name: string): number {
  const value = seconds(duration, name);
  if (value <= 0) throw new RangeError(`${name} must be longer than 0, got ${String(duration)}`);
  return value;
}
