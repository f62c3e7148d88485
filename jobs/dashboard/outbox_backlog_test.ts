import assert from "node:assert/strict";
import { InMemoryOutbox, InMemoryTransactions, type IntegrationEvent } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { dashboardApp } from "../testdata/dashboard_app.ts";

const operator = "olga;operator;t1";
const reader = "rita;reader;t1";

async function outboxWithBacklog(): Promise<InMemoryOutbox> {
  const outbox = new InMemoryOutbox();
  outbox.subscribe(new Map([["billing.invoice.sent", ["notifications.notify"]]]));
  const transactions = new InMemoryTransactions();
  const event = (id: string, occurredAt: string, tenantId?: string): IntegrationEvent => ({
    id,
    type: "billing.invoice.sent",
    version: 1,
    occurredAt,
    payload: {},
    ...(tenantId === undefined ? {} : { tenantId }),
  });
  for (
    const e of [
      event("e1", "2026-01-01T00:00:00.000Z", "t1"),
      event("e2", "2026-01-01T00:01:00.000Z", "t1"),
      event("e3", "2025-12-31T00:00:00.000Z", "t2"),
      event("e4", "2025-12-31T00:00:00.000Z"),
    ]
  ) await transactions.run((unit) => outbox.append(e, unit));
  const [first] = await outbox.claim({
    now: new Date("2026-01-01T00:02:00Z"),
    limit: 1,
    leaseMs: 1_000,
  });
  // The oldest (e3, e4) is claimed first: fail it for a retry.
  await outbox.fail(first!, {
    error: "refused",
    now: new Date("2026-01-01T00:02:00Z"),
    retryAt: new Date("2026-01-01T00:03:00Z"),
  });
  return outbox;
}

Deno.test("an operator reads the outbox's pending deliveries by handler, the oldest's age on the clock, of their tenant only", async () => {
  const clock = new TestClock("2026-01-01T00:05:00Z");
  const { call } = dashboardApp({ clock, outbox: await outboxWithBacklog() });
  const read = await call("GET", "/ops/jobs/outbox", operator);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.handlers, [
    {
      handler: "notifications.notify",
      pending: 2,
      oldestPendingAt: "2026-01-01T00:00:00.000Z",
      oldestPendingAgeMs: 300_000,
      retrying: 0,
      dead: 0,
    },
  ]);
  assert.equal((await call("GET", "/ops/jobs/outbox", reader)).status, 200);
  assert.equal((await call("GET", "/ops/jobs/outbox", "pat;patient;t1")).status, 403);
  assert.equal((await call("GET", "/ops/jobs/outbox", undefined)).status, 401);
  // Another tenant's operator counts their tenant's events only (e3, retrying).
  const other = await call("GET", "/ops/jobs/outbox", "oscar;operator;t2");
  assert.deepEqual(other.body.handlers, [
    {
      handler: "notifications.notify",
      pending: 1,
      oldestPendingAt: "2025-12-31T00:00:00.000Z",
      oldestPendingAgeMs: 86_700_000,
      retrying: 1,
      dead: 0,
    },
  ]);
  assert.deepEqual(
    (await call("GET", "/ops/jobs/outbox", "tess;operator;t3")).body.handlers,
    [],
  );
});

Deno.test("without an outbox, GET <prefix>/outbox is not mounted, not documented, and the page leaves it out", async () => {
  const { call, fetch } = dashboardApp();
  assert.equal((await call("GET", "/ops/jobs/outbox", operator)).status, 404);
  const document = (await call("GET", "/openapi.json", undefined)).body as {
    paths: Record<string, unknown>;
  };
  assert.equal(document.paths["/ops/jobs/outbox"], undefined);
  const page = await (await fetch(new Request("http://kit.test/ops/jobs"))).text();
  assert.doesNotMatch(page, /data-outbox/);

  const withOutbox = dashboardApp({ outbox: new InMemoryOutbox() });
  const html = await (await withOutbox.fetch(new Request("http://kit.test/ops/jobs"))).text();
  assert.match(html, /<body data-prefix="\/ops\/jobs" data-outbox="on">/);
  const documented = (await withOutbox.call("GET", "/openapi.json", undefined)).body as {
    paths: Record<string, Record<string, { summary?: string; security?: unknown }>>;
  };
  const operation = documented.paths["/ops/jobs/outbox"]?.get;
  assert.match(operation?.summary ?? "", /permission jobs\.read/);
  assert.deepEqual(operation?.security, [{ bearer: [] }]);
  assert.deepEqual((await withOutbox.call("GET", "/ops/jobs/outbox", operator)).body, {
    handlers: [],
  });
});
