import assert from "node:assert/strict";
import { type ExecutionContext, hasRole, systemActor, userActor } from "../mod.ts";
import { belongsToTenant, hasScopes } from "../internal.ts";
import { reachesTenant } from "../tenancy/tenancy.ts";

Deno.test("userActor builds a user with roles, tenants and attributes, and refuses an empty id", () => {
  const alice = userActor("alice", {
    roles: ["practitioner"],
    tenants: ["t1"],
    attributes: { a: 1 },
  });
  assert.equal(alice.kind, "user");
  assert.ok(hasRole(alice, "admin", "practitioner"));
  assert.ok(!hasRole(alice, "admin"));
  assert.ok(belongsToTenant(alice, "t1"));
  assert.ok(!belongsToTenant(alice, "t2"));
  assert.throws(() => userActor(""), /An actor id must be a non-empty string, got ""/);
  assert.equal(systemActor.kind, "system");
  assert.ok(Object.isFrozen(systemActor));
});

Deno.test("hasScopes needs every scope named", () => {
  const session = { scopes: new Set(["calendars:read", "calendars:write"]) };
  assert.ok(hasScopes(session, ["calendars:read"]));
  assert.ok(!hasScopes(session, ["calendars:read", "people:read"]));
  assert.ok(!hasScopes(undefined, ["calendars:read"]));
});

Deno.test("reachesTenant: work for a tenant reaches it and elevated tenants; work without one reaches all", () => {
  const base: ExecutionContext = { origin: "test", actor: systemActor, correlationId: "c" };
  assert.ok(reachesTenant(base, "t1"));
  assert.ok(reachesTenant({ ...base, tenantId: "t1" }, "t1"));
  assert.ok(!reachesTenant({ ...base, tenantId: "t1" }, "t2"));
  assert.ok(reachesTenant({ ...base, tenantId: "t1", elevatedTenants: ["t2"] }, "t2"));
});
