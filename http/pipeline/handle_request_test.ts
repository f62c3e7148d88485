import assert from "node:assert/strict";
import { calendars, cancelled, order, schedulingApp } from "../testdata/scheduling_app.ts";
import type { GuardRefusal } from "../mod.ts";

const receptionist = "r1;receptionist;p1";
const patient = "pat1;patient;p1";

function post(
  path: string,
  body: unknown,
  user?: string,
  headers: Record<string, string> = {},
): Request {
  return new Request(`http://api.test${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(user ? { "x-test-user": user } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function get(path: string, user?: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://api.test${path}`, {
    headers: { ...(user ? { "x-test-user": user } : {}), ...headers },
  });
}

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  return await response.json();
}

Deno.test("A controller route answers its declared status and body after mapper, bus and handler", async () => {
  const http = schedulingApp();
  const response = await http.fetch(
    post("/appointments/a1/cancellation", { reason: "ill" }, receptionist),
  );
  assert.equal(response.status, 201);
  assert.deepEqual(await response.json(), { id: "a1" });
  assert.ok(cancelled.includes("a1"));
});

Deno.test("Every invalid part is reported in one 422 VALIDATION_FAILED problem with JSON pointers", async () => {
  const http = schedulingApp();
  const response = await http.fetch(
    post("/appointments/a1/cancellation", { reason: "" }, receptionist),
  );
  const problem = await problemOf(response);
  assert.equal(response.status, 422);
  assert.equal(problem.code, "VALIDATION_FAILED");
  assert.equal(problem.type, "urn:kit:problem:validation-failed");
  assert.equal(problem.instance, "/appointments/a1/cancellation");
  assert.deepEqual((problem.errors as { pointer: string }[]).map((e) => e.pointer), [
    "/body/reason",
  ]);
  const agenda = await http.fetch(get("/practices/p1/agenda?from=not-a-date&days=99", patient));
  const agendaProblem = await problemOf(agenda);
  assert.deepEqual(
    (agendaProblem.errors as { pointer: string }[]).map((e) => e.pointer).sort(),
    ["/query/days", "/query/from"],
  );
});

Deno.test("401 comes before 403: an anonymous caller is refused by the group's Authenticated", async () => {
  const refusals: GuardRefusal[] = [];
  const http = schedulingApp({ refusals });
  const response = await http.fetch(post("/appointments/a1/cancellation", { reason: "ill" }));
  assert.equal(response.status, 401);
  assert.equal((await problemOf(response)).code, "UNAUTHORIZED");
  assert.equal(refusals.length, 1);
  assert.equal(refusals[0]!.guard, "Authenticated");
  assert.equal(refusals[0]!.actor, undefined);
});

Deno.test("A permission refused by the bus answers 403 FORBIDDEN", async () => {
  const http = schedulingApp();
  const response = await http.fetch(
    post("/appointments/a2/cancellation", { reason: "ill" }, patient),
  );
  assert.equal(response.status, 403);
  const problem = await problemOf(response);
  assert.equal(problem.code, "FORBIDDEN");
  assert.match(String(problem.detail), /appointment.cancel/);
  assert.ok(!cancelled.includes("a2"));
});

Deno.test("Domain refusals answer their code, with the project's status or their kind's default", async () => {
  const http = schedulingApp();
  const missing = await http.fetch(
    post("/appointments/missing/cancellation", { reason: "x" }, receptionist),
  );
  assert.equal(missing.status, 404, "mapped by statusByCode");
  assert.equal((await problemOf(missing)).code, "APPOINTMENT_NOT_FOUND");
  const ended = await http.fetch(
    post("/appointments/past/cancellation", { reason: "x" }, receptionist),
  );
  assert.equal(ended.status, 409, "mapped by statusByCode");
  assert.equal((await problemOf(ended)).code, "APPOINTMENT_ENDED");
});

Deno.test("An unexpected error answers 500 without its message and goes to the error reporter", async () => {
  const reported: unknown[] = [];
  const http = schedulingApp({ reported, checked: false });
  const response = await http.fetch(
    post("/appointments/crash/cancellation", { reason: "x" }, receptionist),
  );
  assert.equal(response.status, 500);
  const text = await response.text();
  assert.ok(!text.includes("secret"), "the error's message must not leak");
  assert.equal(JSON.parse(text).code, "INTERNAL_ERROR");
  assert.equal(reported.length, 1);
});

Deno.test("Guards run parent group, group, controller; the first refusal stops the rest", async () => {
  const http = schedulingApp();
  order.length = 0;
  const response = await http.fetch(get("/practices/p1/agenda?from=2026-09-01", patient));
  assert.equal(response.status, 200);
  assert.deepEqual(order, ["parent", "group", "controller"]);
  assert.deepEqual(await response.json(), {
    practiceId: "p1",
    slots: [{ startsAt: "2026-09-01T09:00:00.000Z" }],
  });
  // The group's guard refuses: the controller's never runs, nor the handler.
  order.length = 0;
  const refused = await http.fetch(
    get("/practices/p1/agenda?from=2026-09-01", patient, { "x-refuse-at": "group" }),
  );
  assert.equal(refused.status, 403);
  assert.equal((await problemOf(refused)).detail, "Refused at group");
  assert.deepEqual(order, ["parent", "group"]);
});

Deno.test("A tenant the caller does not belong to is refused with 403 before the guards run", async () => {
  const refusals: GuardRefusal[] = [];
  const http = schedulingApp({ refusals });
  order.length = 0;
  const response = await http.fetch(get("/practices/p2/agenda?from=2026-09-01", patient));
  assert.equal(response.status, 403);
  assert.equal((await problemOf(response)).code, "FORBIDDEN");
  assert.deepEqual(order, []);
  assert.equal(refusals[0]?.guard, "TenantMember");
});

Deno.test("A project guard with dependencies reads x-api-key through the ApiKeys port", async () => {
  const http = schedulingApp();
  assert.equal((await http.fetch(get("/partners/ping"))).status, 401);
  assert.equal(
    (await http.fetch(get("/partners/ping", undefined, { "x-api-key": "bad" }))).status,
    401,
  );
  assert.equal(
    (await http.fetch(get("/partners/ping", undefined, { "x-api-key": "good-key" }))).status,
    204,
  );
});

Deno.test("HasRole answers 401 to an anonymous caller and 403 to a caller without the role", async () => {
  const http = schedulingApp();
  assert.equal((await http.fetch(get("/admin/stats"))).status, 401);
  assert.equal((await http.fetch(get("/admin/stats", patient))).status, 403);
  assert.equal((await http.fetch(get("/admin/stats", "boss;admin;"))).status, 200);
});

Deno.test("A Public route answers anyone", async () => {
  const http = schedulingApp();
  const response = await http.fetch(get("/health"));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { status: "ok" });
});

Deno.test("A function route answers 201 with Location when created and 200 when there", async () => {
  const http = schedulingApp();
  calendars.clear();
  const put = (user?: string) =>
    http.fetch(
      new Request("http://api.test/calendars/cal-9", {
        method: "PUT",
        headers: user ? { "x-test-user": user } : {},
      }),
    );
  assert.equal((await put()).status, 401, "it states its own security");
  const created = await put(receptionist);
  assert.equal(created.status, 201);
  assert.equal(created.headers.get("location"), "/calendars/cal-9");
  assert.deepEqual(await created.json(), { id: "cal-9" });
  const again = await put(receptionist);
  assert.equal(again.status, 200);
  assert.equal(again.headers.get("location"), null);
});

Deno.test("Malformed JSON, a wrong content type and an oversized body are clean 4xx problems", async () => {
  const http = schedulingApp({ bodyLimit: 64 });
  const broken = await http.fetch(post("/appointments/a1/cancellation", "{ reason:", receptionist));
  assert.equal(broken.status, 400);
  assert.equal((await problemOf(broken)).code, "MALFORMED_JSON");
  const text = await http.fetch(
    post("/appointments/a1/cancellation", "reason=x", receptionist, {
      "content-type": "text/plain",
    }),
  );
  assert.equal(text.status, 415);
  assert.equal((await problemOf(text)).code, "UNSUPPORTED_MEDIA_TYPE");
  const huge = await http.fetch(
    post("/appointments/a1/cancellation", { reason: "x".repeat(500) }, receptionist),
  );
  assert.equal(huge.status, 413);
  assert.equal((await problemOf(huge)).code, "CONTENT_TOO_LARGE");
});

Deno.test("Unknown paths answer 404 and a known path with another method 405 with Allow", async () => {
  const http = schedulingApp();
  const missing = await http.fetch(get("/nowhere"));
  assert.equal(missing.status, 404);
  assert.equal((await problemOf(missing)).code, "NOT_FOUND");
  const wrong = await http.fetch(new Request("http://api.test/health", { method: "DELETE" }));
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "GET");
});

Deno.test("The application answers the same over a real socket (Deno.serve)", async () => {
  const http = schedulingApp();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, http.fetch);
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const ok = await fetch(`${base}/appointments/s1/cancellation`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-user": receptionist },
      body: JSON.stringify({ reason: "socket" }),
    });
    assert.equal(ok.status, 201);
    assert.deepEqual(await ok.json(), { id: "s1" });
    const refused = await fetch(`${base}/appointments/s1/cancellation`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reason: "anonymous" }),
    });
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).code, "UNAUTHORIZED");
    const empty = await fetch(`${base}/appointments/s1/cancellation`, { method: "POST" });
    assert.equal(empty.status, 422, "validation comes before guards (the spec's order)");
    assert.deepEqual((await empty.json()).errors.map((e: { pointer: string }) => e.pointer), [
      "/body",
    ]);
  } finally {
    await server.shutdown();
  }
});
