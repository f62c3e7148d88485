import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { until } from "../../test_support/until.ts";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  type BackgroundJobExecution,
  composeApplication,
  defineModule,
  systemActor,
} from "@kit/kernel";
import type { LogRecord } from "@kit/kernel/logging";
import { TestClock } from "@kit/kernel/testing";
import { Background, InMemoryJobStore, jobsPlugin } from "../mod.ts";
import type { NewJob } from "../store.ts";
import { TestReader } from "../../test_support/metric_reader.ts";

@Background({ lease: "5s" })
class Remind {
  static readonly jobName = "scheduling.remind";
  run(_payload: unknown, _execution: BackgroundJobExecution): Promise<void> {
    return Promise.resolve();
  }
}

/** Lets every task the clock woke run to its next wait (the in-memory store answers at once). */
async function settle(): Promise<void> {
  await turns(20);
}

function mailJob(id: string, at: Date): NewJob {
  return {
    id,
    name: "mail.send",
    queue: "mail",
    payload: {},
    actor: systemActor,
    correlationId: "c",
    maxAttempts: 3,
    runAt: at,
    createdAt: at,
  };
}

async function collect(
  reader: TestReader,
): Promise<Map<string, { attributes: unknown; value: unknown }[]>> {
  const { resourceMetrics } = await reader.collect();
  const byName = new Map<string, { attributes: unknown; value: unknown }[]>();
  for (const metric of resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)) {
    byName.set(
      metric.descriptor.name,
      metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })),
    );
  }
  return byName;
}

function setup() {
  const clock = new TestClock(Date.parse("2026-11-26T12:00:00.000Z"));
  const store = new InMemoryJobStore();
  const lines: LogRecord[] = [];
  const reader = new TestReader();
  const app = composeApplication({
    modules: [defineModule("scheduling", { declarations: [Remind] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        start: true,
        worker: {
          id: "w-1",
          host: "box-1",
          pid: 4242,
          heartbeatInterval: "1s",
          heartbeatTtl: "3s",
          rescueInterval: "2s",
        },
        logger: { log: (record) => lines.push(record) },
        meterProvider: new MeterProvider({ readers: [reader] }),
      }),
    },
  });
  return { clock, store, lines, reader, app };
}

Deno.test("A started worker registers with its id, host, pid and queues, heartbeats on the clock, and deregisters when it stops", async () => {
  const { clock, store, app } = setup();
  const started = clock.now();
  await app.start();
  try {
    assert.deepEqual(await store.workerList({ now: clock.now() }), [{
      id: "w-1",
      host: "box-1",
      pid: 4242,
      queues: ["scheduling"],
      startedAt: started,
      heartbeatAt: started,
      expiresAt: new Date(started.getTime() + 3_000),
    }]);
    clock.advance(1_000);
    await until(
      async () =>
        (await store.workerList({ now: clock.now() }))[0]?.heartbeatAt.getTime() ===
          started.getTime() + 1_000,
      "a heartbeat a second later",
    );
    clock.advance(5_000);
    await until(
      async () => (await store.workerList({ now: clock.now() })).length === 1,
      "still live after 6 s: it kept beating",
    );
  } finally {
    await app.stop();
  }
  assert.deepEqual(await store.workerList({ now: clock.now() }), []);
});

Deno.test("The rescuer returns a dead worker's jobs to waiting though no worker consumes their queue: counted, logged once, live workers gauged", async () => {
  const { clock, store, lines, reader, app } = setup();
  const t0 = clock.now();
  await store.workerHeartbeat({
    worker: { id: "w-dead", queues: ["mail"], startedAt: t0 },
    now: t0,
    ttlMs: 3_000,
  });
  await store.jobInsert({ job: mailJob("m1", t0) });
  await store.jobInsert({ job: mailJob("m2", t0) });
  await store.jobClaim({
    queue: "mail",
    limit: 2,
    now: t0,
    leases: {},
    defaultLeaseMs: 4_000,
    workerId: "w-dead",
  });
  await app.start();
  await settle();
  try {
    const live = await collect(reader);
    assert.deepEqual(
      live.get("kit.workers.live")?.sort((a, b) =>
        JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes))
      ),
      [
        { attributes: { queue: "mail" }, value: 1 },
        { attributes: { queue: "scheduling" }, value: 1 },
      ],
    );
    assert.equal(lines.length, 0, "the first pass found no lease ended");
    clock.advance(2_000); // the rescuer's pass at 2 s: no lease ended yet
    await settle();
    clock.advance(1_000); // 3 s: the dead worker's registration expires; its leases not yet
    await until(
      async () => (await store.workerList({ now: clock.now() })).length === 1,
      "w-dead gone",
    );
    assert.deepEqual(
      (await store.jobList({ status: "running" })).map((j) => [j.id, j.workerId]),
      [["m1", "w-dead"], ["m2", "w-dead"]],
    );
    clock.advance(1_000); // 4 s: both leases ended; the rescuer's pass at 4 s takes them back
    await until(
      async () => (await store.jobList({ status: "waiting" })).length === 2,
      "the dead worker's jobs waiting again",
    );
    const rescues = lines.filter((line) => line.code === "LEASES_EXPIRED");
    assert.equal(rescues.length, 1);
    assert.equal(rescues[0]?.component, "jobs.rescuer");
    assert.equal(rescues[0]?.count, 2);
    assert.deepEqual(rescues[0]?.details, { queues: { mail: 2 }, waiting: 2, dead: 0 });
    const metrics = await collect(reader);
    assert.deepEqual(metrics.get("kit.jobs.leases.expired"), [
      { attributes: { queue: "mail" }, value: 2 },
    ]);
    assert.deepEqual(
      metrics.get("kit.workers.live")?.find((p) =>
        (p.attributes as { queue: string }).queue === "mail"
      )?.value,
      0,
    );
    clock.advance(2_000);
    await settle();
    assert.equal(lines.filter((line) => line.code === "LEASES_EXPIRED").length, 1);
  } finally {
    await app.stop();
  }
});

Deno.test("A worker's claim that takes a job over from an ended lease counts it in kit.jobs.leases.expired", async () => {
  const { clock, store, lines, reader, app } = setup();
  const t0 = clock.now();
  await store.jobInsert({
    job: { ...mailJob("r1", t0), name: "scheduling.remind", queue: "scheduling" },
  });
  await store.jobClaim({
    queue: "scheduling",
    limit: 1,
    now: t0,
    leases: {},
    defaultLeaseMs: 500,
    workerId: "w-dead",
  });
  await app.start();
  await settle();
  try {
    clock.advance(1_000); // the lease ended at 500 ms; the queue's poll claims the job before the rescuer's pass at 2 s
    await until(
      async () => (await store.jobList({ status: "succeeded" })).length === 1,
      "the job run by the live worker",
    );
    assert.equal((await store.jobList())[0]?.workerId, "w-1");
    const metrics = await collect(reader);
    assert.deepEqual(metrics.get("kit.jobs.leases.expired"), [
      { attributes: { queue: "scheduling" }, value: 1 },
    ]);
    assert.deepEqual(lines.filter((line) => line.code === "LEASES_EXPIRED"), []);
  } finally {
    await app.stop();
  }
});

Deno.test("A store that stops answering holds a worker's stop 5 s at most: the rescue pass and the deregistration are left behind, logged", async () => {
  const clock = new TestClock(Date.parse("2026-11-26T12:00:00.000Z"));
  const lines: LogRecord[] = [];
  let frozen = false;
  class FrozenStore extends InMemoryJobStore {
    override jobRescue(params: { now: Date; limit: number }) {
      return frozen ? new Promise<never>(() => {}) : super.jobRescue(params);
    }
    override workerDeregister(params: { id: string }) {
      return frozen ? new Promise<never>(() => {}) : super.workerDeregister(params);
    }
  }
  const app = composeApplication({
    modules: [defineModule("scheduling", { declarations: [Remind] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({
        store: new FrozenStore(),
        start: true,
        worker: { rescueInterval: "2s" },
        logger: { log: (record) => lines.push(record) },
      }),
    },
  });
  await app.start();
  await settle();
  frozen = true;
  clock.advance(2_000); // a rescue pass starts and never ends
  await settle();
  let stopped = false;
  const stopping = app.stop().then(() => (stopped = true));
  await settle();
  clock.advance(4_999);
  await settle();
  assert.equal(stopped, false, "the stop waits for the pass under way");
  clock.advance(1); // the pass's 5 s are up; the deregistration's start
  await settle();
  clock.advance(5_000);
  await stopping;
  assert.deepEqual(lines.map((line) => line.code), ["RESCUE_ABANDONED", "DEREGISTER_FAILED"]);
});
