import assert from "node:assert/strict";
import { TestClock } from "@kit/kernel/testing";
import { dashboardApp, job, t0 } from "../testdata/dashboard_app.ts";

const operator = "olga;operator;t1";
const reader = "rita;reader;t1";

Deno.test("the workers route lists the live workers with the jobs each holds, and the jobs whose worker is gone; a job's page says so", async () => {
  const clock = new TestClock(t0);
  const { call, store } = dashboardApp({ clock });
  const at = (ms: number) => new Date(t0.getTime() + ms);
  await store.workerHeartbeat({
    worker: { id: "w-live", host: "box-1", pid: 7, queues: ["scheduling"], startedAt: t0 },
    now: t0,
    ttlMs: 30_000,
  });
  await store.workerHeartbeat({
    worker: { id: "w-killed", queues: ["scheduling"], startedAt: at(1) },
    now: t0,
    ttlMs: 10_000,
  });
  const held = job();
  const orphan = job();
  const otherTenant = job({ tenantId: "t2" });
  for (const j of [held, orphan, otherTenant]) await store.jobInsert({ job: j });
  const claim = (workerId: string, id: string) =>
    store.jobClaim({
      queue: "scheduling",
      limit: 1,
      now: t0,
      leases: {},
      defaultLeaseMs: 60_000,
      workerId,
    }).then(([claimed]) => assert.equal(claimed?.id, id));
  await claim("w-live", held.id);
  await claim("w-killed", orphan.id);
  await claim("w-live", otherTenant.id);

  const before = await call("GET", "/ops/jobs/workers", operator);
  assert.equal(before.status, 200);
  assert.deepEqual((before.body.workers as { id: string }[]).map((w) => w.id), [
    "w-live",
    "w-killed",
  ]);
  assert.deepEqual(before.body.orphanedJobs, []);
  assert.equal(
    (await call("GET", `/ops/jobs/jobs/${orphan.id}`, operator)).body.workerGone,
    undefined,
  );

  clock.advance(20_000); // w-killed's heartbeat expired; w-live beats on
  await store.workerHeartbeat({
    worker: { id: "w-live", host: "box-1", pid: 7, queues: ["scheduling"], startedAt: t0 },
    now: clock.now(),
    ttlMs: 30_000,
  });
  const after = await call("GET", "/ops/jobs/workers", operator);
  assert.deepEqual(after.body, {
    workers: [{
      id: "w-live",
      host: "box-1",
      pid: 7,
      queues: ["scheduling"],
      startedAt: t0.toISOString(),
      heartbeatAt: at(20_000).toISOString(),
      expiresAt: at(50_000).toISOString(),
      runningJobs: [{ id: held.id, name: held.name, queue: "scheduling" }],
    }],
    orphanedJobs: [{ id: orphan.id, name: orphan.name, queue: "scheduling", workerId: "w-killed" }],
  });
  const gone = await call("GET", `/ops/jobs/jobs/${orphan.id}`, operator);
  assert.equal(gone.body.status, "running");
  assert.equal(gone.body.workerId, "w-killed");
  assert.equal(gone.body.workerGone, true);
  const alive = await call("GET", `/ops/jobs/jobs/${held.id}`, operator);
  assert.equal(alive.body.workerId, "w-live");
  assert.equal(alive.body.workerGone, undefined);

  assert.equal((await call("GET", "/ops/jobs/workers", reader)).status, 200);
  assert.equal((await call("GET", "/ops/jobs/workers", "pat;patient;t1")).status, 403);
  assert.equal((await call("GET", "/ops/jobs/workers", undefined)).status, 401);
});
