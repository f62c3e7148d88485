import assert from "node:assert/strict";
import { postgresClientOptions } from "../postgres.ts";

Deno.test("postgresClientOptions: 10 connections, connect and acquire in 5 s, statements in 15 s, an answer within 20 s, reconnection within 1 s", () => {
  const options = postgresClientOptions();
  assert.equal(options.max, 10);
  assert.equal(options.connect_timeout, 5);
  assert.equal(options.acquire_timeout, 5);
  assert.equal(options.query_timeout, 20, "a deadline 5 s above the statement time-out");
  assert.equal(options.idle_timeout, undefined);
  assert.deepEqual(options.connection, { statement_timeout: 15_000 });
  const backoff = options.backoff as (retries: number) => number;
  assert.deepEqual([0, 1, 2, 3, 4, 5, 20].map(backoff), [0.05, 0.1, 0.2, 0.4, 0.8, 1, 1]);
});

Deno.test("postgresClientOptions takes durations of every form, 0 for no statement time-out, and further connection parameters", () => {
  const options = postgresClientOptions({
    max: 3,
    connectTimeout: "2s",
    acquireTimeout: 500,
    statementTimeout: 0,
    idleInTransactionTimeout: "1m",
    idleTimeout: "30s",
    maxReconnectDelay: "250ms",
    connection: { search_path: "billing", statement_timeout: 1 },
  });
  assert.equal(options.max, 3);
  assert.equal(options.connect_timeout, 2);
  assert.equal(options.acquire_timeout, 0.5);
  assert.equal(options.query_timeout, undefined, "no statement time-out: no deadline either");
  assert.equal(postgresClientOptions({ queryTimeout: "3s" }).query_timeout, 3);
  assert.equal(postgresClientOptions({ queryTimeout: 0 }).query_timeout, undefined);
  assert.equal(postgresClientOptions({ statementTimeout: "1m" }).query_timeout, 65);
  assert.equal(options.idle_timeout, 30);
  assert.deepEqual(options.connection, {
    search_path: "billing",
    statement_timeout: 0,
    idle_in_transaction_session_timeout: 60_000,
  }, "the time-outs win over the parameters given");
  assert.equal((options.backoff as (retries: number) => number)(10), 0.25);
});

Deno.test("postgresClientOptions refuses a pool of no connection and a time-out of nothing, naming the setting", () => {
  assert.throws(() => postgresClientOptions({ max: 0 }), /at least one connection, got max: 0/);
  assert.throws(
    () => postgresClientOptions({ acquireTimeout: 0 }),
    /acquireTimeout must be longer than 0/,
  );
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => postgresClientOptions({ connectTimeout: "5 seconds" as any }),
    /connectTimeout: Invalid duration '5 seconds'/,
  );
});
