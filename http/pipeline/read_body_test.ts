import assert from "node:assert/strict";
import { requestAs, tenantApp } from "../testdata/tenant_app.ts";

const ann = "ann;t1";

/** A body that sends its first bytes, then nothing, never closing; tells when it is cancelled. */
function stalledBody(): { stream: ReadableStream<Uint8Array>; cancelled: Promise<unknown> } {
  let cancel!: (reason: unknown) => void;
  const cancelled = new Promise((resolve) => (cancel = resolve));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"id":"half'));
    },
    cancel(reason) {
      cancel(reason);
    },
  });
  return { stream, cancelled };
}

function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://api.test/calendars", {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-user": ann, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

Deno.test("A body not all received within bodyTimeoutMs answers 408 REQUEST_TIMEOUT and its read is cancelled", async () => {
  const http = tenantApp({ bodyTimeoutMs: 30 });
  const { stream, cancelled } = stalledBody();
  const started = performance.now();
  const response = await http.fetch(post(stream));
  assert.equal(response.status, 408);
  const problem = await response.json();
  assert.equal(problem.code, "REQUEST_TIMEOUT");
  assert.equal(problem.detail, "The body was not received within 30 ms");
  assert.ok(performance.now() - started < 1_000);
  const reason = await cancelled;
  assert.match(String(reason), /not received within 30 ms/);
  assert.deepEqual(await (await http.fetch(requestAs(ann, "GET", "/calendars"))).json(), []);
});

Deno.test("A body with a declared Content-Length that stalls answers 408 too", async () => {
  const http = tenantApp({ bodyTimeoutMs: 20 });
  const { stream } = stalledBody();
  const response = await http.fetch(post(stream, { "content-length": "40" }));
  assert.equal(response.status, 408);
  assert.equal((await response.json()).code, "REQUEST_TIMEOUT");
});

Deno.test("A body that arrives in chunks within bodyTimeoutMs is read whole", async () => {
  const http = tenantApp({ bodyTimeoutMs: 50 });
  const chunks = ['{"id":"cal-1",', '"name":"Dr Who"}'];
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) return controller.close();
      await Promise.resolve();
      controller.enqueue(new TextEncoder().encode(chunk));
    },
  });
  const response = await http.fetch(post(stream));
  assert.equal(response.status, 201);
  assert.deepEqual(await response.json(), { id: "cal-1" });
});

Deno.test("httpPlugin refuses a bodyTimeoutMs that is not a positive number", () => {
  for (const bodyTimeoutMs of [0, -1, Number.NaN]) {
    assert.throws(
      () => tenantApp({ bodyTimeoutMs }),
      /bodyTimeoutMs must be a number of milliseconds > 0/,
    );
  }
  tenantApp({ bodyTimeoutMs: Infinity });
});

Deno.test("Over a real socket, a client that sends half its declared body gets 408", async () => {
  const http = tenantApp({ bodyTimeoutMs: 50 });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, http.fetch);
  const connection = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    await connection.write(new TextEncoder().encode(
      "POST /calendars HTTP/1.1\r\nhost: api.test\r\ncontent-type: application/json\r\n" +
        `x-test-user: ${ann}\r\ncontent-length: 100\r\n\r\n{"id":"half`,
    ));
    const buffer = new Uint8Array(4_096);
    const read = await connection.read(buffer);
    const answer = new TextDecoder().decode(buffer.subarray(0, read ?? 0));
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /"code":"REQUEST_TIMEOUT"/);
  } finally {
    connection.close();
    await server.shutdown();
  }
});
