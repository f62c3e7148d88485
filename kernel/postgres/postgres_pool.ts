import { type Meter, type MeterProvider, metrics } from "@opentelemetry/api";
import type postgres from "postgres";

/** A postgres.js pool at a glance (kit's patched driver, `vendor/postgres`). */
export interface PostgresPoolState {
  /** Connections running statements (busy, full, or held by a transaction or a reservation). */
  readonly inUse: number;
  /** Connections open and free. */
  readonly idle: number;
  /** Connections being opened. */
  readonly connecting: number;
  /** Statements waiting for a connection of the pool. */
  readonly waiting: number;
  /** When the server last answered on any connection of the pool (or the pool was made). */
  readonly lastAnswerAt: Date;
}

interface DriverPoolState {
  inUse: number;
  idle: number;
  connecting: number;
  waiting: number;
  lastAnswerAt: number;
}

/**
 * The state of the client's pool, or undefined when the driver cannot tell (upstream
 * postgres.js; kit's patched copy can).
 *
 * @example
 * ```ts ignore
 * const state = postgresPoolState(sql);
 * if (state && state.waiting > 0) console.log(`${state.waiting} statements wait for a connection`);
 * ```
 */
export function postgresPoolState(sql: postgres.Sql): PostgresPoolState | undefined {
  const poolState = (sql as unknown as { poolState?: () => DriverPoolState }).poolState;
  if (typeof poolState !== "function") return undefined;
  const state = poolState();
  return { ...state, lastAnswerAt: new Date(state.lastAnswerAt) };
}

/** What {@linkcode observePostgresPool} publishes through. */
export interface ObservePostgresPoolOptions {
  /** The meter provider (default: the global one of `@opentelemetry/api`). */
  readonly meterProvider?: MeterProvider;
}

/**
 * Publishes the pool's connections as the observable up-down counter `kit.db.pool.connections`
 * (attribute `state`: `in_use`, `idle`, `waiting`; `waiting` counts statements waiting for a
 * connection) through `@opentelemetry/api`, on meter `kit`. Answers a function that stops
 * publishing. Nothing is published with upstream postgres.js (no pool state).
 *
 * @example
 * ```ts ignore
 * const stop = observePostgresPool(sql);
 * ```
 */
export function observePostgresPool(
  sql: postgres.Sql,
  options: ObservePostgresPoolOptions = {},
): () => void {
  const meter: Meter = (options.meterProvider ?? metrics).getMeter("kit");
  const connections = meter.createObservableUpDownCounter("kit.db.pool.connections", {
    description: "Connections of the PostgreSQL pool by state, and statements waiting for one",
    unit: "{connection}",
  });
  const observe = (result: { observe(value: number, attributes: { state: string }): void }) => {
    const state = postgresPoolState(sql);
    if (state === undefined) return;
    result.observe(state.inUse, { state: "in_use" });
    result.observe(state.idle, { state: "idle" });
    result.observe(state.waiting, { state: "waiting" });
  };
  connections.addCallback(observe);
  return () => connections.removeCallback(observe);
}
