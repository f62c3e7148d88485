import assert from "node:assert/strict";
import { TestClock } from "@kit/kernel/testing";
import { dashboardApp, job, t0 } from "../testdata/dashboard_app.ts";

const operator = "olga;operator;t1";
const reader = "rita;reader;t1";
const otherOperator = "oscar;operator;t2";
const patient = "pat;patient;t1";

Deno.test("an operator sees the queues' counts and pages through the jobs, newest first", async () => {
  const { store, call, dead } = dashboardApp();
  const jobs = [job(), job(), job({ queue: "billing", name: "billing.send-invoice" })];
  for (const j of jobs) await store.jobInsert({ job: j });
  await dead(job(), "CALENDAR_GONE");
  const counts = await call("GET", "/ops/jobs/queues", operator);
  assert.equal(counts.status, 200);
  assert.deepEqual(counts.body.queues, [
    { queue: "billing", waiting: 1, running: 0, succeeded: 0, dead: 0, cancelled: 0 },
    { queue: "scheduling", waiting: 2, running: 0, succeeded: 0, dead: 1, cancelled: 0 },
  ]);
  const first = await call("GET", "/ops/jobs/jobs?limit=3", operator);
  assert.equal(first.status, 200);
  const firstIds = (first.body.jobs as { id: string }[]).map((j) => j.id);
  assert.equal(typeof first.body.next, "string");
  const second = await call(
    "GET",
    `/ops/jobs/jobs?limit=3&after=${encodeURIComponent(first.body.next as string)}`,
    operator,
  );
  assert.equal(second.body.next, undefined);
  const all = [...firstIds, ...(second.body.jobs as { id: string }[]).map((j) => j.id)];
  assert.equal(all.length, 4);
  assert.deepEqual(all, [...all].sort().reverse());
  const [newest] = first.body.jobs as Record<string, unknown>[];
  assert.equal("payload" in newest!, false);
  assert.deepEqual(newest!.actor, { kind: "user", id: "dr-who" });
  assert.equal(newest!.traceId, "4bf92f3577b34da6a3ce929d0e0e4736");
  const bad = await call("GET", "/ops/jobs/jobs?after=bogus", operator);
  assert.equal(bad.status, 400);
  assert.equal((bad.body as { code?: string }).code, "INVALID_CURSOR");
  assert.equal((await call("GET", "/ops/jobs/jobs?limit=201", operator)).status, 422);
});

Deno.test("a reader charts each queue's last hour, minute by minute, of the tenants the work reaches", async () => {
  // Now is 08:00:30: the hour's 60 buckets run from 07:01 to the current minute, 08:00.
  const { store, call, dead } = dashboardApp({ clock: new TestClock("2026-05-01T08:00:30Z") });
  await dead(job(), "BOOM");
  await dead(job({ tenantId: "t2", queue: "billing", name: "billing.send-invoice" }), "BOOM");
  const ok = job({ runAt: new Date(t0.getTime() - 3_600_000) });
  await store.jobInsert({ job: ok });
  const [claimed] = await store.jobClaim({
    queue: "scheduling",
    limit: 1,
    now: new Date(t0.getTime() - 120_000),
    leases: {},
    defaultLeaseMs: 60_000,
  });
  await store.jobComplete({
    id: ok.id,
    leaseToken: claimed!.leaseToken,
    now: new Date(t0.getTime() - 90_000),
  });
  const answer = await call("GET", "/ops/jobs/activity", reader);
  assert.equal(answer.status, 200);
  assert.equal(answer.body.since, "2026-05-01T07:01:00.000Z");
  assert.equal(answer.body.bucketMs, 60_000);
  const [scheduling, ...others] = answer.body.queues as {
    queue: string;
    succeeded: number[];
    failed: number[];
    dead: number[];
  }[];
  assert.deepEqual(others, [], "the other tenant's billing queue is not answered");
  assert.equal(scheduling?.queue, "scheduling");
  const expected = (at: Record<number, number>) => Array.from({ length: 60 }, (_, i) => at[i] ?? 0);
  assert.deepEqual(scheduling?.succeeded, expected({ 57: 1 }));
  assert.deepEqual(scheduling?.failed, expected({ 59: 1 }));
  assert.deepEqual(scheduling?.dead, expected({ 59: 1 }));
  const other = await call("GET", "/ops/jobs/activity?queue=billing", otherOperator);
  assert.deepEqual(
    (other.body.queues as { queue: string }[]).map((q) => q.queue),
    ["billing"],
  );
  assert.deepEqual(
    (await call("GET", "/ops/jobs/activity?queue=billing", operator)).body.queues,
    [],
  );
  assert.equal((await call("GET", "/ops/jobs/activity", patient)).status, 403);
  assert.equal((await call("GET", "/ops/jobs/activity", undefined)).status, 401);
});

Deno.test("an operator searches jobs by name, subject, id and error code, and narrows by status", async () => {
  const { store, call, dead } = dashboardApp();
  const invoice = job({ queue: "billing", name: "billing.send-invoice", subject: "inv-7" });
  const other = job({ subject: "cal-1" });
  const failed = job({ subject: "cal-2" });
  await store.jobInsert({ job: invoice });
  await store.jobInsert({ job: other });
  await dead(failed, "CALENDAR_GONE");
  const ids = async (query: string) =>
    ((await call("GET", `/ops/jobs/jobs?${query}`, operator)).body.jobs as { id: string }[])
      .map((j) => j.id);
  assert.deepEqual(await ids("name=billing."), [invoice.id]);
  assert.deepEqual(await ids("subject=cal-1"), [other.id]);
  assert.deepEqual(await ids(`id=${failed.id}`), [failed.id]);
  assert.deepEqual(await ids("errorCode=CALENDAR_GONE"), [failed.id]);
  assert.deepEqual(await ids("queue=scheduling&status=dead"), [failed.id]);
  assert.deepEqual(await ids("queue=scheduling&status=waiting"), [other.id]);
});

Deno.test("an operator opens a job, cancels a waiting one and revives a dead one", async () => {
  const { store, call, dead } = dashboardApp();
  const waiting = job();
  const failed = job();
  await store.jobInsert({ job: waiting });
  await dead(failed, "BOOM");
  const opened = await call("GET", `/ops/jobs/jobs/${failed.id}`, operator);
  assert.equal(opened.status, 200);
  assert.equal(opened.body.status, "dead");
  assert.equal(opened.body.lastErrorCode, "BOOM");
  assert.equal(opened.body.lastErrorAt, t0.toISOString());
  assert.equal(opened.body.attempts, 1);
  assert.equal(opened.body.tenantId, "t1");
  const [attempt, ...more] = opened.body.attemptHistory as Record<string, unknown>[];
  assert.deepEqual(more, []);
  assert.deepEqual(
    [attempt?.attempt, attempt?.outcome, attempt?.errorCode, attempt?.at],
    [1, "dead", "BOOM", t0.toISOString()],
  );
  const listed = await call("GET", `/ops/jobs/jobs?id=${failed.id}`, operator);
  assert.equal("attemptHistory" in (listed.body.jobs as object[])[0]!, false, "pages leave it out");

  assert.equal(
    (await call("POST", `/ops/jobs/jobs/${waiting.id}/cancellation`, operator)).status,
    200,
  );
  assert.equal((await store.jobFind({ id: waiting.id, reach: {} }))?.status, "cancelled");
  const again = await call("POST", `/ops/jobs/jobs/${waiting.id}/cancellation`, operator);
  assert.equal(again.status, 409);
  assert.equal(again.body.code, "JOB_NOT_CANCELLABLE");

  assert.equal((await call("POST", `/ops/jobs/jobs/${failed.id}/revival`, operator)).status, 200);
  const revived = await store.jobFind({ id: failed.id, reach: {} });
  assert.equal(revived?.status, "waiting");
  assert.equal(revived?.attempts, 0);
  const twice = await call("POST", `/ops/jobs/jobs/${failed.id}/revival`, operator);
  assert.equal(twice.status, 409);
  assert.equal(twice.body.code, "JOB_NOT_DEAD");
});

Deno.test("an operator revives every dead job of a queue the work reaches, and no other", async () => {
  const { store, call, dead } = dashboardApp();
  const mine = [job(), job()];
  const theirs = job({ tenantId: "t2" });
  const elsewhere = job({ queue: "billing", name: "billing.send-invoice" });
  for (const j of [...mine, theirs, elsewhere]) await dead(j, "BOOM");
  const answer = await call("POST", "/ops/jobs/queues/scheduling/revival", operator);
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { revived: 2, more: false });
  for (const j of mine) {
    assert.equal((await store.jobFind({ id: j.id, reach: {} }))?.status, "waiting");
  }
  assert.equal((await store.jobFind({ id: theirs.id, reach: {} }))?.status, "dead");
  assert.equal((await store.jobFind({ id: elsewhere.id, reach: {} }))?.status, "dead");
});

Deno.test("a reader lists and opens jobs but every action is refused (403), nothing changed", async () => {
  const { store, call, dead } = dashboardApp();
  const waiting = job();
  const failed = job();
  await store.jobInsert({ job: waiting });
  await dead(failed, "BOOM");
  assert.equal((await call("GET", "/ops/jobs/jobs", reader)).status, 200);
  assert.equal((await call("GET", `/ops/jobs/jobs/${failed.id}`, reader)).status, 200);
  for (
    const [path, body] of [
      [`/ops/jobs/jobs/${waiting.id}/cancellation`, undefined],
      [`/ops/jobs/jobs/${failed.id}/revival`, undefined],
      ["/ops/jobs/queues/scheduling/revival", undefined],
      ["/ops/jobs/purge", { before: "2030-01-01T00:00:00.000Z" }],
    ] as const
  ) {
    const refused = await call("POST", path, reader, body);
    assert.equal(refused.status, 403, path);
    assert.equal(refused.body.code, "FORBIDDEN");
  }
  assert.equal((await store.jobFind({ id: waiting.id, reach: {} }))?.status, "waiting");
  assert.equal((await store.jobFind({ id: failed.id, reach: {} }))?.status, "dead");
  for (const path of ["/ops/jobs/jobs", "/ops/jobs/queues"]) {
    assert.equal((await call("GET", path, patient)).status, 403, path);
    assert.equal((await call("GET", path, undefined)).status, 401, path);
  }
});

Deno.test("another tenant's operator never sees or acts on a job (404), and counts none of it", async () => {
  const { store, call, dead } = dashboardApp();
  const waiting = job();
  const failed = job();
  await store.jobInsert({ job: waiting });
  await dead(failed, "BOOM");
  assert.deepEqual((await call("GET", "/ops/jobs/queues", otherOperator)).body.queues, []);
  assert.deepEqual((await call("GET", "/ops/jobs/jobs", otherOperator)).body.jobs, []);
  assert.deepEqual(
    (await call("GET", `/ops/jobs/jobs?id=${waiting.id}`, otherOperator)).body.jobs,
    [],
  );
  for (
    const [method, path] of [
      ["GET", `/ops/jobs/jobs/${waiting.id}`],
      ["POST", `/ops/jobs/jobs/${waiting.id}/cancellation`],
      ["POST", `/ops/jobs/jobs/${failed.id}/revival`],
    ] as const
  ) {
    const refused = await call(method, path, otherOperator);
    assert.equal(refused.status, 404, path);
    assert.equal(refused.body.code, "JOB_NOT_FOUND");
  }
  assert.deepEqual(
    (await call("POST", "/ops/jobs/queues/scheduling/revival", otherOperator)).body,
    { revived: 0, more: false },
  );
  assert.equal((await store.jobFind({ id: waiting.id, reach: {} }))?.status, "waiting");
  assert.equal((await store.jobFind({ id: failed.id, reach: {} }))?.status, "dead");
});

Deno.test("purging spans every tenant: a tenant's operator is refused (403), nothing deleted", async () => {
  const { store, call, dead } = dashboardApp();
  await dead(job(), "BOOM");
  const refused = await call("POST", "/ops/jobs/purge", operator, {
    before: "2030-01-01T00:00:00.000Z",
  });
  assert.equal(refused.status, 403);
  assert.equal((await store.jobList()).length, 1);
});

Deno.test("the OpenAPI document lists the dashboard's routes with 401, 403 and their permission, the page as public", async () => {
  const { call } = dashboardApp();
  const document = (await call("GET", "/openapi.json", undefined)).body as {
    paths: Record<
      string,
      Record<string, {
        summary?: string;
        responses: Record<string, unknown>;
        security?: unknown;
        "x-permissions"?: unknown;
      }>
    >;
  };
  const expected: [string, string, string][] = [
    ["/ops/jobs/queues", "get", "jobs.read"],
    ["/ops/jobs/activity", "get", "jobs.read"],
    ["/ops/jobs/events", "get", "jobs.read"],
    ["/ops/jobs/jobs", "get", "jobs.read"],
    ["/ops/jobs/jobs/{jobId}", "get", "jobs.read"],
    ["/ops/jobs/jobs/{jobId}/cancellation", "post", "jobs.operate"],
    ["/ops/jobs/jobs/{jobId}/revival", "post", "jobs.operate"],
    ["/ops/jobs/queues/{queue}/revival", "post", "jobs.operate"],
    ["/ops/jobs/purge", "post", "jobs.operate"],
    ["/ops/jobs/schedules", "get", "jobs.read"],
    ["/ops/jobs/schedules/{name}/run", "post", "jobs.operate"],
  ];
  for (const [path, method, permission] of expected) {
    const operation = document.paths[path]?.[method];
    assert.ok(operation, `${method} ${path}`);
    assert.ok(operation.responses["401"], `${path} 401`);
    assert.ok(operation.responses["403"], `${path} 403`);
    assert.match(
      operation.summary ?? "",
      new RegExp(`permission ${permission.replace(".", "\\.")}`),
    );
    assert.deepEqual(operation.security, [{ bearer: [] }]);
    assert.deepEqual(operation["x-permissions"], [permission], `${path} x-permissions`);
  }
  // The page and its assets: open to anyone (they hold no data): no credential, no 401.
  for (
    const path of ["/ops/jobs", "/ops/jobs/assets/dashboard.css", "/ops/jobs/assets/dashboard.js"]
  ) {
    const operation = document.paths[path]?.get;
    assert.ok(operation, path);
    assert.deepEqual(operation.security, [], path);
    assert.equal(operation.responses["401"], undefined, path);
    assert.equal(operation["x-permissions"], undefined, path);
  }
});
