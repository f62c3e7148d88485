import assert from "node:assert/strict";
import { isRefusal, ServiceUnavailableError } from "../mod.ts";
import { postgresUnavailability, translatePostgresError } from "./postgres_errors.ts";

const outages: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection lost",
  EPIPE: "connection lost",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "host not found",
  CONNECTION_CLOSED: "connection lost",
  CONNECTION_DESTROYED: "connection lost",
  CONNECTION_ENDED: "client closed",
  CONNECT_TIMEOUT: "connect time-out",
  ACQUIRE_TIMEOUT: "no connection free in time",
  QUERY_TIMEOUT: "no answer in time",
  "08006": "connection failed",
  "08001": "connection failed",
  "57P01": "server shutting down",
  "57P02": "server crashed",
  "57P03": "server starting or stopping",
  "53300": "too many connections",
  "53100": "server out of resources",
  "57014": "statement time-out",
  "55P03": "lock time-out",
};

Deno.test("translatePostgresError answers every connection error, shutdown and time-out SERVICE_UNAVAILABLE, with its reason and cause", () => {
  for (const [code, reason] of Object.entries(outages)) {
    const error = Object.assign(new Error(`write ${code} 10.0.0.7:5432`), { code });
    const translated = translatePostgresError(error);
    assert.ok(translated instanceof ServiceUnavailableError, code);
    assert.ok(isRefusal(translated, "SERVICE_UNAVAILABLE"), code);
    assert.equal(translated.retryAfterSeconds, 5, code);
    assert.deepEqual(
      translated.details,
      { service: "database", retryAfterSeconds: 5, reason },
      code,
    );
    assert.equal(translated.cause, error, code);
    assert.ok(!translated.message.includes("10.0.0.7"), `${code}: no address in the message`);
  }
});

Deno.test("translatePostgresError leaves errors that are no outage alone; EPIPE is no SQLSTATE", () => {
  for (const code of ["23505", "42P01", "08P01", "XX000", "P0001"]) {
    const error = Object.assign(new Error(code), { code });
    assert.equal(translatePostgresError(error), error, code);
  }
  assert.equal(isRefusal(translatePostgresError({ code: "22021" }), "INVALID_INPUT"), true);
  assert.equal(isRefusal(translatePostgresError({ code: "40001" }), "CONCURRENT_UPDATE"), true);
  assert.equal(isRefusal(translatePostgresError({ code: "EPIPE" }), "SERVICE_UNAVAILABLE"), true);
  const plain = new Error("no code");
  assert.equal(translatePostgresError(plain), plain);
  assert.equal(translatePostgresError("text"), "text");
});

Deno.test("translatePostgresError takes the Retry-After it is given, and finds an outage a few causes deep", () => {
  const wrapped = new Error("the relay failed", {
    cause: new Error("a batch failed", { cause: { code: "ECONNREFUSED" } }),
  });
  const translated = translatePostgresError(wrapped, { retryAfterSeconds: 2 });
  assert.ok(translated instanceof ServiceUnavailableError);
  assert.equal(translated.retryAfterSeconds, 2);
  assert.equal(
    postgresUnavailability({ cause: { cause: { cause: { cause: { code: "ECONNRESET" } } } } }),
    undefined,
    "not past four levels",
  );
});

Deno.test("ServiceUnavailableError: at least one whole second, its reason in the message", () => {
  assert.equal(
    new ServiceUnavailableError("database", { retryAfterSeconds: 0 }).retryAfterSeconds,
    1,
  );
  assert.equal(
    new ServiceUnavailableError("database", { retryAfterSeconds: 1.2 }).retryAfterSeconds,
    2,
  );
  const error = new ServiceUnavailableError("job store");
  assert.equal(error.message, "The job store is unavailable: retry in 5 s");
  assert.equal(error.name, "ServiceUnavailableError");
  assert.equal(error.kind, "refusal");
});
