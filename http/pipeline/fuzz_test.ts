import assert from "node:assert/strict";
import { schedulingApp } from "../testdata/scheduling_app.ts";

/** A small seeded generator (mulberry32), so every run sends the same requests. */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("Thousands of malformed requests get only 4xx problem documents, never a 500", async () => {
  const reported: unknown[] = [];
  const http = schedulingApp({ reported, bodyLimit: 4_096 });
  const next = random(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
  const text = (n: number) =>
    Array.from({ length: n }, () => String.fromCharCode(32 + Math.floor(next() * 95))).join("");
  const paths = [
    "/appointments/a1/cancellation",
    "/appointments//cancellation",
    "/appointments/%E0%A4%A/cancellation",
    "/practices/p1/agenda",
    "/practices/p1/agenda?from=2026-01-01&days=abc",
    "/practices/p1/agenda?days=1&days=2&from=",
    "/calendars/c1",
    "/calendars/%00",
    "/health",
    "/partners/ping",
    "/" + text(40),
    "/appointments/" + "x".repeat(5_000) + "/cancellation",
    "/appointments/a%00b/cancellation",
    "/appointments/%ED%A0%80/cancellation",
    "/practices/%00/agenda?from=2026-01-01",
    "/practices/p1/agenda?from=2026-01-01&days=%00",
  ];
  const bodies: (() => BodyInit | null)[] = [
    () => null,
    () => bytes(Math.floor(next() * 300)),
    () => '{"reason":',
    () => JSON.stringify({ reason: Math.floor(next() * 1000) }),
    () => JSON.stringify({ reason: null, extra: [1, 2, { a: "b" }] }),
    () => JSON.stringify([{ reason: "x" }]),
    () => "[".repeat(2_000) + "]".repeat(2_000),
    () => JSON.stringify({ reason: "x".repeat(10_000) }),
    () => JSON.stringify("just a string"),
    () => text(100),
    () => new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]),
    () => '{"reason":"ill\\u0000"}',
    () => '{"reason":"\\ud800 lone"}',
    () => '{"reason":"x","\\udc00":"key"}',
    () => new Uint8Array([0x7b, 0x22, 0x72, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  ];
  const contentTypes = [
    undefined,
    "application/json",
    "text/plain",
    "application/merge-patch+json",
    "multipart/form-data; boundary=x",
    text(20),
  ];
  const users = [
    undefined,
    "r1;receptionist;p1",
    "pat1;patient;p1",
    ";;",
    "x;" + text(10) + ";" + text(10),
  ];
  let sent = 0;
  for (let i = 0; i < 3_000; i++) {
    const method = pick(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]);
    const headers = new Headers();
    const type = pick(contentTypes);
    if (type !== undefined) headers.set("content-type", type);
    const user = pick(users);
    if (user !== undefined) headers.set("x-test-user", user);
    if (next() < 0.1) headers.set("x-api-key", text(Math.floor(next() * 20_000)));
    if (next() < 0.1) headers.set("x-correlation-id", text(300));
    const body = method === "GET" || method === "HEAD" ? null : pick(bodies)();
    let request: Request;
    try {
      request = new Request(`http://fuzz.test${pick(paths)}`, { method, headers, body });
    } catch {
      continue; // not a request a client could send
    }
    const response = await http.fetch(request);
    sent++;
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    if (response.status >= 500) {
      assert.fail(`${method} ${request.url} answered ${response.status}: ${await response.text()}`);
    }
    if (response.status >= 400) {
      assert.equal(response.headers.get("content-type"), "application/problem+json");
      const problem = await response.json();
      assert.equal(problem.status, response.status);
      assert.equal(typeof problem.code, "string");
    } else {
      await response.body?.cancel();
    }
  }
  assert.ok(sent > 2_500, `only ${sent} requests could be built`);
  assert.deepEqual(reported, []);
});
