import assert from "node:assert/strict";
import { dashboardApp, job, t0 } from "../testdata/dashboard_app.ts";

const operator = "olga;operator;t1";
const otherOperator = "oscar;operator;t2";
const patient = "pat;patient;t1";

interface Snapshot {
  queues: { queue: string; waiting: number; running: number; dead: number }[];
  running: { id: string; progress: { done: number; total?: number } }[];
}

/** Reads the stream's events as they come: `next()` answers the next one. */
function eventsOf(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    reader,
    async next(): Promise<{ event: string; data: unknown } | undefined> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue;
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
          const data = /^data: (.*)$/m.exec(block)?.[1];
          return { event, data: data === undefined ? undefined : JSON.parse(data) };
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
  };
}

function open(fetch: (request: Request) => Promise<Response>, token: string) {
  return fetch(
    new Request("http://kit.test/ops/jobs/events", {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    }),
  );
}

Deno.test("the event stream answers a snapshot at once, then the progress of running jobs as it moves", async () => {
  const { store, fetch, dashboard } = dashboardApp({ events: { intervalMs: 10 } });
  const running = job({ subject: "cal-1" });
  await store.jobInsert({ job: running });
  await store.jobInsert({ job: job({ tenantId: "t2" }) });
  const response = await open(fetch, operator);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
  assert.equal(response.headers.get("cache-control"), "no-store");
  const events = eventsOf(response.body!);
  const first = await events.next();
  assert.equal(first?.event, "snapshot");
  assert.deepEqual((first?.data as Snapshot).queues, [
    { queue: "scheduling", waiting: 1, running: 0, succeeded: 0, dead: 0, cancelled: 0 },
  ]);
  assert.deepEqual((first?.data as Snapshot).running, []);

  const [claimed] = await store.jobClaim({
    queue: "scheduling",
    limit: 1,
    now: t0,
    leases: {},
    defaultLeaseMs: 60_000,
  });
  assert.equal(claimed?.id, running.id);
  const seen = async (done: number) => {
    for (;;) {
      const next = await events.next();
      assert.equal(next?.event, "snapshot");
      const snapshot = next!.data as Snapshot;
      if (snapshot.running[0]?.progress.done === done) return snapshot;
    }
  };
  const started = await seen(0);
  assert.equal(started.queues[0]?.running, 1);
  assert.deepEqual(started.running.map((j) => j.id), [running.id], "not another tenant's");
  await store.jobReport({
    id: running.id,
    leaseToken: claimed!.leaseToken,
    now: t0,
    leaseMs: 60_000,
    progress: { done: 2, total: 5 },
  });
  assert.deepEqual((await seen(2)).running[0]?.progress, { done: 2, total: 5 });
  assert.equal(dashboard.openStreams, 1);
  await events.reader.cancel();
  assert.equal(dashboard.openStreams, 0, "the client gone, the stream ends");
});

Deno.test("the event stream is refused (403 JSON) without jobs.read, and 401 without a caller", async () => {
  const { fetch, dashboard } = dashboardApp();
  const refused = await open(fetch, patient);
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).code, "FORBIDDEN");
  const anonymous = await fetch(new Request("http://kit.test/ops/jobs/events"));
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  assert.equal(dashboard.openStreams, 0);
});

Deno.test("close() ends every open event stream, so that a server's graceful shutdown is not held", async () => {
  const { store, fetch, dashboard } = dashboardApp({ events: { intervalMs: 5 } });
  await store.jobInsert({ job: job() });
  const streams = [
    eventsOf((await open(fetch, operator)).body!),
    eventsOf((await open(fetch, otherOperator)).body!),
  ];
  for (const stream of streams) assert.equal((await stream.next())?.event, "snapshot");
  assert.equal(dashboard.openStreams, 2);
  dashboard.close();
  assert.equal(dashboard.openStreams, 0);
  for (const stream of streams) {
    while ((await stream.next()) !== undefined) { /* the rest, then the end */ }
  }
  const late = eventsOf((await open(fetch, operator)).body!);
  assert.equal((await late.next())?.event, "snapshot");
  assert.equal(await late.next(), undefined, "a stream opened after close() ends at once");
});

Deno.test("a stream ends after maxDurationMs (the page connects again, its token checked again)", async () => {
  const { store, fetch, dashboard } = dashboardApp({
    events: { intervalMs: 5, maxDurationMs: 20 },
  });
  await store.jobInsert({ job: job() });
  const stream = eventsOf((await open(fetch, operator)).body!);
  while ((await stream.next()) !== undefined) { /* until it ends */ }
  assert.equal(dashboard.openStreams, 0);
});

Deno.test("the request's signal ends the stream: a client gone is not read for", async () => {
  const { store, dashboard, fetch } = dashboardApp({ events: { intervalMs: 5 } });
  await store.jobInsert({ job: job() });
  const controller = new AbortController();
  const response = await fetch(
    new Request("http://kit.test/ops/jobs/events", {
      headers: { authorization: `Bearer ${operator}` },
      signal: controller.signal,
    }),
  );
  assert.equal(response.status, 200);
  assert.equal(dashboard.openStreams, 1);
  controller.abort();
  assert.equal(dashboard.openStreams, 0);
  await response.body?.cancel().catch(() => {});
});
