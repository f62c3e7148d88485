import assert from "node:assert/strict";
import { dashboardApp } from "../testdata/dashboard_app.ts";
import { process, seeded } from "../testdata/process_seed.ts";

const operator = "olga;operator;t1";
const reader = "rita;reader;t1";
const otherOperator = "oscar;operator;t2";
const patient = "pat;patient;t1";
const base = "/ops/jobs/processes";

Deno.test("an operator counts and pages a process's instances of the tenants the work reaches", async () => {
  const { call } = await seeded();
  const counts = await call("GET", base, reader);
  assert.equal(counts.status, 200);
  assert.deepEqual(counts.body.processes, [{ process, active: 1, completed: 1 }]);
  assert.deepEqual((await call("GET", base, otherOperator)).body.processes, [
    { process, active: 1, completed: 0 },
  ]);
  const first = await call("GET", `${base}/${process}/instances?limit=1`, reader);
  assert.equal(first.status, 200);
  const keys = (body: Record<string, unknown>) =>
    (body.instances as { tenantId: string; key: string }[]).map((i) => `${i.tenantId}/${i.key}`);
  assert.deepEqual(keys(first.body), ["t1/a1"]);
  const second = await call(
    "GET",
    `${base}/${process}/instances?limit=1&after=${encodeURIComponent(first.body.next as string)}`,
    reader,
  );
  assert.deepEqual(keys(second.body), ["t1/a2"]);
  assert.equal(second.body.next, undefined, "t2's instance is not on the pages");
  const completed = await call("GET", `${base}/${process}/instances?status=completed`, reader);
  assert.deepEqual(keys(completed.body), ["t1/a2"]);
  const bad = await call("GET", `${base}/${process}/instances?after=bogus`, reader);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, "INVALID_CURSOR");
});

Deno.test("an operator opens an instance: state, version, pending deadlines with their job ids, history", async () => {
  const { call, jobIds } = await seeded();
  const answer = await call("GET", `${base}/${process}/instances/a1`, reader);
  assert.equal(answer.status, 200);
  const instance = answer.body.instance as Record<string, unknown>;
  assert.equal(instance.tenantId, "t1");
  assert.equal(instance.status, "active");
  assert.equal(instance.version, 1);
  assert.deepEqual(instance.state, { status: "booked" });
  assert.deepEqual(
    (instance.deadlines as { name: string; jobId: string }[]).map((d) => [d.name, d.jobId]),
    [["remind", jobIds[0]], ["release", jobIds[1]]],
  );
  assert.deepEqual(
    (answer.body.history as { kind: string; name: string }[]).map((m) => `${m.kind} ${m.name}`),
    ["event appointments.appointment.booked"],
  );
  // The deadline's job id opens the job in the jobs view.
  const deadlineJob = await call("GET", `/ops/jobs/jobs/${jobIds[0]}`, reader);
  assert.equal(deadlineJob.status, 200);
  assert.equal(deadlineJob.body.name, `${process}-deadline`);
});

Deno.test("an operator ends an instance: completed, ended by them, its deadline jobs cancelled, in its history", async () => {
  const { call, jobIds } = await seeded();
  const ended = await call("POST", `${base}/${process}/instances/a1/end`, operator);
  assert.equal(ended.status, 200);
  assert.deepEqual(ended.body, { key: "a1" });
  const after = await call("GET", `${base}/${process}/instances/a1`, operator);
  const instance = after.body.instance as Record<string, unknown>;
  assert.equal(instance.status, "completed");
  assert.equal(instance.endedBy, "olga");
  assert.equal(instance.version, 2);
  assert.deepEqual(instance.deadlines, []);
  assert.deepEqual(
    (after.body.history as { kind: string; name: string }[]).map((m) => `${m.kind} ${m.name}`),
    ["event appointments.appointment.booked", "operator olga"],
  );
  for (const id of jobIds) {
    assert.equal((await call("GET", `/ops/jobs/jobs/${id}`, operator)).body.status, "cancelled");
  }
  const again = await call("POST", `${base}/${process}/instances/a1/end`, operator);
  assert.equal(again.status, 404, "an ended instance is not ended again");
  assert.equal(again.body.code, "PROCESS_INSTANCE_NOT_FOUND");
});

Deno.test("another tenant's operator never sees or ends an instance (404); a reader is refused the end (403); no token 401", async () => {
  const { call, processes, jobIds } = await seeded();
  const other = await call("GET", `${base}/${process}/instances/a1?tenantId=t1`, otherOperator);
  assert.equal(other.status, 404);
  assert.equal(other.body.code, "PROCESS_INSTANCE_NOT_FOUND");
  const end = await call("POST", `${base}/${process}/instances/a2/end?tenantId=t1`, otherOperator);
  assert.equal(end.status, 404);
  const ownA1 = await call("GET", `${base}/${process}/instances/a1`, otherOperator);
  assert.equal((ownA1.body.instance as { tenantId: string }).tenantId, "t2", "its own a1");
  assert.equal((await call("POST", `${base}/${process}/instances/a1/end`, reader)).status, 403);
  assert.equal((await call("GET", base, patient)).status, 403);
  assert.equal((await call("GET", base, undefined)).status, 401);
  assert.equal(
    (await call("POST", `${base}/${process}/instances/a1/end`, undefined)).status,
    401,
  );
  const kept = processes.instances().find((i) => i.tenantId === "t1" && i.key === "a1");
  assert.equal(kept?.status, "active", "nothing changed");
  assert.equal(kept?.version, 1);
  for (const id of jobIds) {
    assert.equal((await call("GET", `/ops/jobs/jobs/${id}`, operator)).body.status, "waiting");
  }
});

Deno.test("the OpenAPI document lists the process routes with 401, 403 and their permission, only with a process store", async () => {
  const { call } = await seeded();
  const document = (await call("GET", "/openapi.json", undefined)).body as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const expected: [string, string, string][] = [
    ["/ops/jobs/processes", "get", "jobs.read"],
    ["/ops/jobs/processes/{process}/instances", "get", "jobs.read"],
    ["/ops/jobs/processes/{process}/instances/{key}", "get", "jobs.read"],
    ["/ops/jobs/processes/{process}/instances/{key}/end", "post", "jobs.operate"],
  ];
  for (const [path, method, permission] of expected) {
    const operation = document.paths[path]?.[method] as {
      responses: Record<string, unknown>;
      summary: string;
      "x-permissions": unknown;
    };
    assert.ok(operation, `${method} ${path}`);
    assert.ok(operation.responses["401"], `${path} 401`);
    assert.ok(operation.responses["403"], `${path} 403`);
    assert.match(operation.summary, new RegExp(`permission ${permission.replace(".", "\\.")}`));
    assert.deepEqual(operation["x-permissions"], [permission], `${path} x-permissions`);
  }
  const without = dashboardApp();
  const plain = (await without.call("GET", "/openapi.json", undefined)).body as {
    paths: Record<string, unknown>;
  };
  assert.deepEqual(Object.keys(plain.paths).filter((p) => p.includes("/processes")), []);
  assert.equal((await without.call("GET", base, operator)).status, 404);
});
