import assert from "node:assert/strict";
import type { GuardRefusal } from "../mod.ts";
import { asyncTestUsers, requestAs, tenantApp } from "../testdata/tenant_app.ts";

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  return await response.json();
}

Deno.test("A caller of one tenant who names none works for that tenant, on routes with and without parts", async () => {
  const http = tenantApp();
  const ann = "ann;t1";
  const created = await http.fetch(
    requestAs(ann, "POST", "/calendars", { body: { id: "cal-1", name: "Dr Who" } }),
  );
  assert.equal(created.status, 201);
  await http.fetch(
    requestAs("bob;t2", "POST", "/calendars", { body: { id: "cal-2", name: "Dr No" } }),
  );
  assert.deepEqual(await (await http.fetch(requestAs(ann, "GET", "/calendars"))).json(), [
    { id: "cal-1", name: "Dr Who" },
  ]);
  assert.deepEqual(await (await http.fetch(requestAs("bob;t2", "GET", "/open/calendars"))).json(), [
    { id: "cal-2", name: "Dr No" },
  ]);
  assert.deepEqual(await (await http.fetch(requestAs(ann, "GET", "/calendars/tenant"))).json(), {
    tenantId: "t1",
  });
  assert.deepEqual(await (await http.fetch(requestAs(ann, "GET", "/open/tenant"))).json(), {
    tenantId: "t1",
  });
});

Deno.test("A caller's only tenant is the work's after an authenticator that awaits", async () => {
  const http = tenantApp({ authenticators: [asyncTestUsers] });
  assert.deepEqual(await (await http.fetch(requestAs("ann;t1", "GET", "/open/tenant"))).json(), {
    tenantId: "t1",
  });
  assert.deepEqual(
    await (await http.fetch(requestAs("multi;t1,t2", "GET", "/open/tenant"))).json(),
    { tenantId: null },
  );
});

Deno.test("A caller of several tenants who names none runs for no tenant: tenant-owned work answers 400 TENANT_REQUIRED", async () => {
  const http = tenantApp();
  const multi = "multi;t1,t2";
  await http.fetch(
    requestAs("ann;t1", "POST", "/calendars", { body: { id: "cal-1", name: "Dr Who" } }),
  );
  const write = await http.fetch(
    requestAs(multi, "POST", "/calendars", { body: { id: "cal-3", name: "Dr Strange" } }),
  );
  assert.equal(write.status, 400);
  const refused = await problemOf(write);
  assert.equal(refused.code, "TENANT_REQUIRED");
  // The caller is told what to send.
  assert.match(String(refused.detail), /send the header 'x-tenant-id' naming one of your tenants/);
  for (const path of ["/calendars", "/open/calendars"]) {
    const read = await http.fetch(requestAs(multi, "GET", path));
    assert.equal(read.status, 400, path);
    assert.equal((await problemOf(read)).code, "TENANT_REQUIRED");
  }
  assert.deepEqual(await (await http.fetch(requestAs(multi, "GET", "/open/tenant"))).json(), {
    tenantId: null,
  });
  const named = await http.fetch(
    requestAs(multi, "GET", "/calendars", { headers: { "x-tenant-id": "t1" } }),
  );
  assert.deepEqual(await named.json(), [{ id: "cal-1", name: "Dr Who" }]);
});

Deno.test("A caller of no tenant runs for no tenant; an anonymous caller is refused by a group without guards", async () => {
  const http = tenantApp();
  const lone = await http.fetch(requestAs("lone;", "GET", "/calendars"));
  assert.equal(lone.status, 400);
  assert.equal((await problemOf(lone)).code, "TENANT_REQUIRED");
  // A group naming no guard is closed all the same: an anonymous caller is refused before any
  // tenant is looked at.
  for (const path of ["/open/tenant", "/open/calendars"]) {
    const anonymous = await http.fetch(requestAs(undefined, "GET", path));
    assert.equal(anonymous.status, 401, path);
  }
});

Deno.test("The project's statusByCode is over the kernel's", async () => {
  const http = tenantApp({ statusByCode: { TENANT_REQUIRED: 403 } });
  const response = await http.fetch(requestAs("multi;t1,t2", "GET", "/calendars"));
  assert.equal(response.status, 403);
  assert.equal((await problemOf(response)).code, "TENANT_REQUIRED");
});

Deno.test("A tenant named that the caller does not belong to is refused 403 on a route without parts too", async () => {
  const refusals: GuardRefusal[] = [];
  const http = tenantApp({ onGuardRefusal: (refusal) => void refusals.push(refusal) });
  for (const path of ["/open/tenant", "/calendars/tenant", "/open/calendars"]) {
    const response = await http.fetch(
      requestAs("ann;t1", "GET", path, { headers: { "x-tenant-id": "t2" } }),
    );
    assert.equal(response.status, 403, path);
    assert.equal((await problemOf(response)).code, "FORBIDDEN");
  }
  assert.deepEqual(refusals.map((r) => r.guard), ["TenantMember", "TenantMember", "TenantMember"]);
});

Deno.test("An empty, over-long or control-character tenant id answers 400 INVALID_TENANT, never passed on", async () => {
  const long = "t".repeat(129);
  const http = tenantApp();
  for (const path of ["/open/tenant", "/calendars/tenant"]) {
    for (
      const [tenant, detail] of [
        ["", /is empty/],
        [long, /longer than 128 characters/],
        ["t\u0001", /control character/],
      ] as const
    ) {
      const response = await http.fetch(
        requestAs(`ann;t1,${tenant}`, "GET", path, { headers: { "x-tenant-id": tenant } }),
      );
      assert.equal(response.status, 400, `${path} ${JSON.stringify(tenant)}`);
      const problem = await problemOf(response);
      assert.equal(problem.code, "INVALID_TENANT");
      assert.match(String(problem.detail), detail);
    }
    const anonymous = await http.fetch(requestAs(undefined, "GET", path, {
      headers: { "x-tenant-id": long },
    }));
    assert.equal(anonymous.status, 400);
  }
  const longest = "t".repeat(128);
  const accepted = await http.fetch(
    requestAs(`ann;${longest}`, "GET", "/calendars/tenant", {
      headers: { "x-tenant-id": longest },
    }),
  );
  assert.deepEqual(await accepted.json(), { tenantId: longest });
});

Deno.test("A tenant id from the path is checked the same way (a control or ill-formed character)", async () => {
  const http = tenantApp({ tenantOf: (params) => params.calendarId });
  const control = await http.fetch(requestAs("ann;t1", "GET", "/calendars/t%01/echo"));
  assert.equal(control.status, 400);
  assert.equal((await problemOf(control)).code, "INVALID_TENANT");
  const own = await http.fetch(requestAs("ann;t1", "GET", "/calendars/t1/echo"));
  assert.deepEqual(await own.json(), { calendarId: "t1", q: null });
});

Deno.test("Guards see the tenant the work runs for: TenantMember lets a caller of one tenant through unnamed", async () => {
  const http = tenantApp();
  const path = "/member/tenant";
  assert.deepEqual(await (await http.fetch(requestAs("ann;t1", "GET", path))).json(), {
    tenantId: "t1",
  });
  const unnamed = await http.fetch(requestAs("multi;t1,t2", "GET", path));
  assert.equal(unnamed.status, 403);
  assert.equal((await problemOf(unnamed)).code, "FORBIDDEN");
  const named = await http.fetch(
    requestAs("multi;t1,t2", "GET", path, { headers: { "x-tenant-id": "t2" } }),
  );
  assert.deepEqual(await named.json(), { tenantId: "t2" });
  assert.equal((await http.fetch(requestAs(undefined, "GET", path))).status, 401);
});

Deno.test("tenantHeader reads the tenant from its header and states it on every operation of the document", async () => {
  const http = tenantApp();
  assert.deepEqual(
    await (await http.fetch(
      requestAs("multi;t1,t2", "GET", "/calendars/tenant", { headers: { "x-tenant-id": "t2" } }),
    )).json(),
    { tenantId: "t2" },
  );
  const paths = http.openapi().paths as Record<
    string,
    Record<string, { parameters?: { name: string; in: string; required: boolean }[] }>
  >;
  const operations = Object.values(paths).flatMap((path) => Object.values(path));
  assert.ok(operations.length > 5);
  for (const operation of operations) {
    const header = operation.parameters?.find((p) => p.name === "x-tenant-id");
    assert.deepEqual(
      header && { in: header.in, required: header.required },
      { in: "header", required: false },
    );
  }
});

Deno.test("tenantHeader is refused beside tenantOf, and when it is no header name", () => {
  assert.throws(
    () => tenantApp({ tenantHeader: "x-tenant", tenantOf: () => undefined }),
    /takes tenantOf or tenantHeader, not both/,
  );
  assert.throws(
    () => tenantApp({ tenantHeader: "x tenant" }),
    /tenantHeader must be a header name, got 'x tenant'/,
  );
});
