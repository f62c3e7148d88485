import assert from "node:assert/strict";
import {
  accessPolicy,
  type Actor,
  AuthorizedQuery,
  composeApplication,
  defineModule,
  definePermissions,
  definePolicy,
  type ExecutionContext,
  Handles,
  isRefusal,
  Query,
  readableTenants,
  Requires,
  requireTenant,
  runElevated,
  runInScope,
  serviceActor,
  systemActor,
  tenantsReached,
  userActor,
} from "../mod.ts";
import { defaultTenant } from "../internal.ts";
import { reachesTenant } from "./tenancy.ts";

const ann = userActor("ann", { tenants: ["t1"] });
const bob = userActor("bob", { tenants: ["t1", "t2"] });
const nobody = userActor("nobody");

function work(actor: Actor, more: Partial<ExecutionContext> = {}): ExecutionContext {
  return { origin: "test", actor, correlationId: "c", ...more };
}

Deno.test("tenantsReached: a user's work reaches its tenant and elevated ones, never all", () => {
  assert.deepEqual(tenantsReached(work(ann, { tenantId: "t1" })), { all: false, tenants: ["t1"] });
  assert.deepEqual(
    tenantsReached(work(ann, { tenantId: "t1", elevatedTenants: ["t3"] })),
    { all: false, tenants: ["t1", "t3"] },
  );
  // No tenant named: a user's or a service's work reaches no tenant-owned data at all.
  assert.deepEqual(tenantsReached(work(bob)), { all: false, tenants: [] });
  assert.deepEqual(tenantsReached(work(serviceActor("billing"))), { all: false, tenants: [] });
  // An explicit elevation without a tenant reaches just the tenants it names.
  assert.deepEqual(
    tenantsReached(work(bob, { elevatedTenants: ["t2"] })),
    { all: false, tenants: ["t2"] },
  );
  // Outside any work: nothing.
  assert.deepEqual(tenantsReached(undefined), { all: false, tenants: [] });
});

Deno.test("tenantsReached: only the system actor's work without a tenant reaches every tenant", () => {
  assert.deepEqual(tenantsReached(work(systemActor)), { all: true });
  assert.deepEqual(
    tenantsReached(work(systemActor, { tenantId: "t1" })),
    { all: false, tenants: ["t1"] },
  );
  assert.ok(reachesTenant(work(systemActor), "t9"));
  assert.ok(reachesTenant(work(systemActor), undefined));
});

Deno.test("reachesTenant: an element of another tenant, or of none, is out of a user's reach", () => {
  const forT1 = work(ann, { tenantId: "t1" });
  assert.ok(reachesTenant(forT1, "t1"));
  assert.ok(!reachesTenant(forT1, "t2"));
  assert.ok(!reachesTenant(forT1, undefined));
  assert.ok(!reachesTenant(work(bob), "t1"));
  assert.ok(!reachesTenant(undefined, "t1"));
});

Deno.test("requireTenant answers the work's tenant, else refuses with TENANT_REQUIRED", () => {
  assert.equal(requireTenant(work(ann, { tenantId: "t1" })), "t1");
  for (const context of [work(bob), work(systemActor), undefined]) {
    assert.throws(() => requireTenant(context), (error) => isRefusal(error, "TENANT_REQUIRED"));
  }
  // By default it reads the work under way.
  assert.equal(
    runInScope({ execution: work(ann, { tenantId: "t1" }) }, () => requireTenant()),
    "t1",
  );
  assert.throws(() => requireTenant(), (error) => isRefusal(error, "TENANT_REQUIRED"));
});

Deno.test("readableTenants: a filter list, none for the system actor, TENANT_REQUIRED when empty", () => {
  assert.deepEqual(readableTenants(work(ann, { tenantId: "t1" })), ["t1"]);
  assert.equal(readableTenants(work(systemActor)), undefined);
  assert.throws(() => readableTenants(work(bob)), (error) => isRefusal(error, "TENANT_REQUIRED"));
});

Deno.test("defaultTenant is the caller's only tenant; none for several, none, or the system", () => {
  assert.equal(defaultTenant(ann), "t1");
  assert.equal(defaultTenant(bob), undefined);
  assert.equal(defaultTenant(nobody), undefined);
  assert.equal(defaultTenant(systemActor), undefined);
});

const permissions = definePermissions("calendars", {
  "calendar.read": { description: "Read a calendar" },
});
const calendarTenants: Record<string, string> = { "cal-a": "t1", "cal-b": "t2" };

@Requires(permissions["calendar.read"], {
  resource: (q: ReadCalendar) => ({ type: "calendar", id: q.calendarId }),
})
class ReadCalendar extends AuthorizedQuery<string> {
  constructor(actor: Actor, readonly calendarId: string) {
    super(actor);
  }
}

@Handles(ReadCalendar)
class ReadCalendarHandler {
  handle(_query: ReadCalendar): Promise<string> {
    return Promise.resolve(requireTenant());
  }
}

class WhoAmI extends Query<string> {}

@Handles(WhoAmI)
class WhoAmIHandler {
  handle(): Promise<string> {
    const reach = tenantsReached();
    return Promise.resolve(reach.all ? "all" : reach.tenants.join(","));
  }
}

function application() {
  return composeApplication({
    modules: [
      defineModule("calendars", {
        declarations: [ReadCalendar, ReadCalendarHandler, WhoAmIHandler],
      }),
    ],
    accessPolicy: accessPolicy({
      grants: { reader: [permissions["calendar.read"]] },
      policies: [
        // The policy sees the work's tenant and refuses an element of another tenant.
        definePolicy(
          permissions["calendar.read"],
          ({ granted, resource, execution }) =>
            granted && resource !== undefined &&
            reachesTenant(execution, calendarTenants[resource.id]),
        ),
      ],
    }),
  });
}

Deno.test("The bus: a message sent outside any work runs for its actor's only tenant", async () => {
  const app = application();
  assert.equal(await app.queries.execute(new WhoAmI(ann)), "t1");
  assert.equal(await app.queries.execute(new WhoAmI(bob)), "");
  assert.equal(await app.queries.execute(new WhoAmI(systemActor)), "all");
});

Deno.test("The bus: a policy sees the work's tenant and refuses another tenant's element", async () => {
  const app = application();
  const reader = userActor("rita", { roles: ["reader"], tenants: ["t1", "t2"] });
  const inT1 = work(reader, { tenantId: "t1" });
  assert.equal(
    await runInScope(
      { execution: inT1 },
      () => app.queries.execute(new ReadCalendar(reader, "cal-a")),
    ),
    "t1",
  );
  await assert.rejects(
    () =>
      runInScope({ execution: inT1 }, () => app.queries.execute(new ReadCalendar(reader, "cal-b"))),
    (error) => isRefusal(error, "FORBIDDEN"),
  );
  // Naming no tenant, the caller of two tenants reaches neither calendar.
  await assert.rejects(
    () => app.queries.execute(new ReadCalendar(reader, "cal-a")),
    (error) => isRefusal(error, "FORBIDDEN"),
  );
});

Deno.test("runElevated: the work reaches the named tenants too, audited first; nothing runs when the audit fails", async () => {
  const records: unknown[] = [];
  const forT1 = work(ann, { tenantId: "t1" });
  const reached = await runInScope({ execution: forT1 }, () =>
    runElevated(
      { tenants: ["t2"], reason: "ticket 4711", audit: (record) => void records.push(record) },
      () => Promise.resolve(tenantsReached()),
    ));
  assert.deepEqual(reached, { all: false, tenants: ["t1", "t2"] });
  assert.deepEqual(records, [{
    actorId: "ann",
    tenantId: "t1",
    tenants: ["t2"],
    reason: "ticket 4711",
    correlationId: "c",
  }]);
  // The elevation ends with the work.
  assert.deepEqual(
    runInScope({ execution: forT1 }, () => tenantsReached()),
    { all: false, tenants: ["t1"] },
  );
  let ran = false;
  await assert.rejects(
    () =>
      runInScope({ execution: forT1 }, () =>
        runElevated(
          { tenants: ["t2"], reason: "x", audit: () => Promise.reject(new Error("trail down")) },
          () => Promise.resolve(void (ran = true)),
        )),
    /trail down/,
  );
  assert.equal(ran, false);
  const audit = () => {};
  await assert.rejects(
    () => runElevated({ tenants: ["t2"], reason: "x", audit }, () => Promise.resolve()),
    /elevates the work under way/,
  );
  await assert.rejects(
    () =>
      runInScope(
        { execution: forT1 },
        () => runElevated({ tenants: [], reason: "x", audit }, () => Promise.resolve()),
      ),
    /non-empty tenant ids/,
  );
  await assert.rejects(
    () =>
      runInScope(
        { execution: forT1 },
        () => runElevated({ tenants: ["t2"], reason: " ", audit }, () => Promise.resolve()),
      ),
    /needs the reason/,
  );
});
