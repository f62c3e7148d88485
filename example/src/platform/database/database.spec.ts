import assert from "node:assert/strict";
import { databaseSettingsFromEnv } from "./database.ts";

Deno.test("databaseSettingsFromEnv reads the pool size and the time-outs; unset keeps kit's defaults", () => {
  assert.deepEqual(databaseSettingsFromEnv({}), {});
  assert.deepEqual(
    databaseSettingsFromEnv({
      DATABASE_POOL_SIZE: "20",
      DATABASE_CONNECT_TIMEOUT: "2s",
      DATABASE_ACQUIRE_TIMEOUT: "750ms",
      DATABASE_STATEMENT_TIMEOUT: "0",
      OTHER: "x",
    }),
    { max: 20, connectTimeout: "2s", acquireTimeout: "750ms", statementTimeout: 0 },
  );
});

Deno.test("databaseSettingsFromEnv refuses a value that is no duration or no pool size, naming the variable", () => {
  assert.throws(
    () => databaseSettingsFromEnv({ DATABASE_CONNECT_TIMEOUT: "5" }),
    /DATABASE_CONNECT_TIMEOUT must be a duration such as 500ms, 5s or 1m, got '5'/,
  );
  assert.throws(
    () => databaseSettingsFromEnv({ DATABASE_POOL_SIZE: "ten" }),
    /DATABASE_POOL_SIZE must be a whole number of connections, got 'ten'/,
  );
  assert.throws(
    () => databaseSettingsFromEnv({ DATABASE_ACQUIRE_TIMEOUT: "0" }),
    /acquireTimeout must be longer than 0/,
  );
});
