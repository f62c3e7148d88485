import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import {
  dueCount,
  percentile,
  rawRequests,
  responseEnd,
  runOpenLoop,
  scheduledAt,
  summarize,
} from "./open_loop.ts";

Deno.test("open loop: request i is scheduled at i / rate seconds, whatever was answered", () => {
  assert.equal(scheduledAt(0, 1000), 0);
  assert.equal(scheduledAt(1, 1000), 1);
  assert.equal(scheduledAt(250, 500), 500);
  assert.equal(scheduledAt(3, 4), 750);
});

Deno.test("open loop: the due count includes the request scheduled at the instant, capped", () => {
  assert.equal(dueCount(-1, 1000, 10), 0);
  assert.equal(dueCount(0, 1000, 10), 1);
  assert.equal(dueCount(0.999, 1000, 10), 1);
  assert.equal(dueCount(1, 1000, 10), 2);
  assert.equal(dueCount(2.5, 1000, 10), 3);
  assert.equal(dueCount(10_000, 1000, 10), 10);
  // The due count and the schedule agree: request n - 1 is due exactly at its scheduled time.
  for (const rate of [3, 700, 12_345]) {
    for (const n of [1, 2, 17, 1000]) {
      assert.equal(dueCount(scheduledAt(n - 1, rate), rate, 1e9) >= n, true, `${rate} ${n}`);
      assert.equal(dueCount(scheduledAt(n, rate) - 1e-6, rate, 1e9), n, `${rate} ${n}`);
    }
  }
});

Deno.test("open loop: percentiles by nearest rank", () => {
  const values = Float64Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 99), 99);
  assert.equal(percentile(values, 99.9), 100);
  assert.equal(percentile(values, 100), 100);
  assert.equal(percentile([7], 50), 7);
  assert.equal(percentile([1, 2], 50), 1);
  assert.equal(percentile([1, 2], 51), 2);
  assert.ok(Number.isNaN(percentile([], 50)));
});

Deno.test("open loop: a summary sorts a copy and keeps the tail", () => {
  const values = [5, 1, 4, 2, 3, 1000];
  const summary = summarize(values);
  assert.deepEqual(values, [5, 1, 4, 2, 3, 1000]);
  assert.equal(summary.count, 6);
  assert.equal(summary.p50, 3);
  assert.equal(summary.p99, 1000);
  assert.equal(summary.max, 1000);
});

const bytes = (text: string) => Buffer.from(text, "latin1");

Deno.test("open loop: a response framed by Content-Length ends after its body", () => {
  const response = "HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\n" +
    'Content-Length: 13\r\n\r\n{"id":"cal"}';
  assert.equal(responseEnd(bytes(response.slice(0, 20))), undefined);
  assert.equal(responseEnd(bytes(response)), undefined); // 12 of 13 bytes
  assert.deepEqual(responseEnd(bytes(response + "}")), { end: response.length + 1, status: 202 });
  assert.deepEqual(
    responseEnd(bytes(response + "}HTTP/1.1 200 OK\r\n")),
    { end: response.length + 1, status: 202 },
  );
});

Deno.test("open loop: a chunked response ends after its last chunk", () => {
  const head = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n";
  const full = head + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
  for (let cut = head.length; cut < full.length; cut++) {
    assert.equal(responseEnd(bytes(full.slice(0, cut))), undefined, `cut at ${cut}`);
  }
  assert.deepEqual(responseEnd(bytes(full)), { end: full.length, status: 200 });
});

Deno.test("open loop: 204 and a response without framing have no body; the status is read", () => {
  const noContent = "HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n";
  assert.deepEqual(responseEnd(bytes(noContent)), { end: noContent.length, status: 204 });
  const notFound = "HTTP/1.1 404 Not Found\r\ndate: x\r\n\r\n";
  assert.deepEqual(responseEnd(bytes(notFound)), { end: notFound.length, status: 404 });
});

Deno.test("open loop: raw requests carry the body's length and one token each, round-robin", () => {
  const url = new URL("http://127.0.0.1:8080/calendars/cal-1/clearances?notify=yes");
  const requests = rawRequests(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"reason":"é"}',
    tokens: ["a", "b"],
  });
  assert.equal(requests.length, 2);
  assert.equal(
    requests[0]!.toString("utf8"),
    "POST /calendars/cal-1/clearances?notify=yes HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n" +
      'content-type: application/json\r\nauthorization: Bearer a\r\ncontent-length: 15\r\n\r\n{"reason":"é"}',
  );
  assert.match(requests[1]!.toString("utf8"), /authorization: Bearer b\r\n/);
  const get = rawRequests(new URL("http://localhost:1/hello"), {});
  assert.deepEqual(get.map(String), ["GET /hello HTTP/1.1\r\nhost: localhost:1\r\n\r\n"]);
});

Deno.test("open loop: a server's stall delays every request scheduled during it (no coordinated omission)", async () => {
  let seen = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async () => {
    // The 11th request of the measured schedule (after 20 of warm-up) stalls 300 ms.
    if (++seen === 31) await new Promise((resolve) => setTimeout(resolve, 300));
    return new Response("ok");
  });
  try {
    const result = await runOpenLoop({
      url: `http://127.0.0.1:${server.addr.port}/`,
      rate: 100,
      seconds: 1,
      warmupSeconds: 0.2,
      connections: 1,
    });
    assert.equal(result.scheduled, 100);
    assert.equal(result.completed, 100);
    assert.equal(result.errors, 0);
    assert.equal(result.latency.count, 100);
    // One connection: the requests scheduled during the 300 ms stall (about 30 of 100) waited for
    // it, and are counted from their scheduled time. A closed-loop count would find one slow
    // request, below p99.
    assert.ok(result.latency.p90 > 50, `p90 ${result.latency.p90} ms`);
    assert.ok(result.latency.max >= 250, `max ${result.latency.max} ms`);
    assert.ok(result.sendLag.p90 > 50, `send lag p90 ${result.sendLag.p90} ms`);
    // That wait was the server's, not the generator's: it sent each as soon as the connection
    // was free.
    assert.ok(result.generatorLag.p90 < 20, `generator lag p90 ${result.generatorLag.p90} ms`);
  } finally {
    await server.shutdown();
  }
});
