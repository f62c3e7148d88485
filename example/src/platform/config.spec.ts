import assert from "node:assert/strict";
import { composePlatform } from "./compose-application.ts";
import { readConfig } from "./config.ts";

Deno.test("readConfig reads OUTBOX_LEASE, a duration with a unit, in ms; unset or empty, 30 s", () => {
  assert.equal(readConfig({}).outboxLeaseMs, 30_000);
  assert.equal(readConfig({ OUTBOX_LEASE: "" }).outboxLeaseMs, 30_000);
  assert.equal(readConfig({ OUTBOX_LEASE: "3s" }).outboxLeaseMs, 3_000);
  assert.equal(readConfig({ OUTBOX_LEASE: "1500ms" }).outboxLeaseMs, 1_500);
  assert.equal(readConfig({ OUTBOX_LEASE: "2.5m" }).outboxLeaseMs, 150_000);
  assert.equal(readConfig({ OUTBOX_LEASE: " 1h " }).outboxLeaseMs, 3_600_000);
});

Deno.test("readConfig refuses an OUTBOX_LEASE that is no duration, or not above the relay's 1 s batch window, naming it", () => {
  for (const value of ["0s", "abc", "30", "-5s", "1s", "1000ms", "10 s", "1e3s", "5d"]) {
    assert.throws(
      () => readConfig({ OUTBOX_LEASE: value }),
      (error: Error) =>
        error.message ===
          `OUTBOX_LEASE must be a duration above 1s (the relay's batch window), such as 10s or 2m, got '${value}'`,
      value,
    );
  }
});

Deno.test("composePlatform hands outboxLeaseMs to the outbox relay as its lease", () => {
  // The relay checks its lease against its 1 s batch window: a lease it was given is checked.
  assert.throws(
    () => composePlatform({ outboxLeaseMs: 1_000 }),
    /batchWindowMs \(1000\) must be below its leaseMs \(1000\)/,
  );
  composePlatform({ outboxLeaseMs: readConfig({ OUTBOX_LEASE: "3s" }).outboxLeaseMs });
});
