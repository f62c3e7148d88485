import type postgres from "postgres";
import type { HealthCheck } from "../health/readiness.ts";
import { consoleLogger, type Logger } from "../logging/logger.ts";
import { type Clock, systemClock } from "../time/clock.ts";
import { type Duration, toMilliseconds } from "../time/duration.ts";
import { postgresPoolState } from "./postgres_pool.ts";

/** How {@linkcode postgresHealthCheck} tells a stalled pool. */
export interface PostgresHealthOptions {
  /**
   * A pool with statements waiting for a connection while the server has answered nothing for
   * this long is stalled (default `"10s"`): the check fails without asking the server.
   */
  readonly stalledAfter?: Duration;
  /** Where the line of a stall (`POOL_STALLED`) and of its end go (default: the console). */
  readonly logger?: Logger;
  /** The clock the stall is measured in (default: the system clock). */
  readonly clock?: Clock;
}

/**
 * The readiness check of a PostgreSQL client: fails while its pool is stalled (statements
 * waiting for a connection, no answer from the server for `stalledAfter`: every connection
 * held by statements that do not end), logging one line when a stall is first seen (component
 * `db.pool`, code `POOL_STALLED`) and one when it ends (`POOL_RECOVERED`); else one `select 1`
 * through the pool, so that it fails when the server is out of reach and when no connection
 * comes free in time. The stall needs kit's patched postgres.js (its pool state).
 *
 * @example
 * ```ts ignore
 * const report = await checkReadiness({ database: postgresHealthCheck(sql) }, { timeout: "2s" });
 * ```
 */
export function postgresHealthCheck(
  sql: postgres.Sql,
  options: PostgresHealthOptions = {},
): HealthCheck {
  const stalledAfterMs = toMilliseconds(options.stalledAfter ?? "10s");
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger();
  let stalledSince: number | undefined;
  return async function database(): Promise<void> {
    const state = postgresPoolState(sql);
    if (state !== undefined) {
      const now = clock.now().getTime();
      const silentMs = now - state.lastAnswerAt.getTime();
      const stalled = state.waiting > 0 && silentMs > stalledAfterMs;
      if (stalled && stalledSince === undefined) {
        stalledSince = now;
        logger.log({
          level: "error",
          component: "db.pool",
          code: "POOL_STALLED",
          message: `${state.waiting} statements wait for a connection and the database has ` +
            `answered nothing for ${Math.round(silentMs / 1000)} s`,
          details: { inUse: state.inUse, idle: state.idle, waiting: state.waiting, silentMs },
        });
      } else if (!stalled && stalledSince !== undefined) {
        logger.log({
          level: "info",
          component: "db.pool",
          code: "POOL_RECOVERED",
          message: `the pool answers again after a stall of ${
            Math.round((now - stalledSince) / 1000)
          } s`,
        });
        stalledSince = undefined;
      }
      if (stalled) throw new Error("the PostgreSQL pool is stalled");
    }
    await sql`select 1`;
  };
}
