import assert from "node:assert/strict";
import { type Actor, $forbiddenImport$isRefusal, runInScope, userActor } from "@kit/kernel";
$preamble$

$messageUnderTest$

/** The version of the $aggregate$ as the tenant t1 finds it. */
async function versionOf(id: string): Promise<number | undefined> {
  return (await runInScope({ execution: inT1 }, () => $variable$s.get(id)))?.version;
}

Deno.test("$name$ adds the $aggregate$ at version 1 and answers its id", async () => {
  assert.deepEqual(await application.commands.execute($new$(actor, "x1")), { id: "x1" });
  assert.equal(await versionOf("x1"), 1);
});

Deno.test("$name$ of an id the tenant keeps already is refused ($exists$), the first stands", async () => {
  await seed("x2");
  await assert.rejects(
    () => application.commands.execute($new$(actor, "x2")),
    (error) => isRefusal(error, "$exists$"),
  );
  assert.equal(await versionOf("x2"), 1);
});

Deno.test("$name$ of an id another tenant keeps adds the tenant's own: ids are each tenant's", async () => {
  await seed("x5");
  assert.deepEqual(
    await application.commands.execute($new$(ofAnotherTenant, "x5")),
    { id: "x5" },
  );
  assert.equal(await versionOf("x5"), 1);
  const inT2 = { origin: "test", actor: ofAnotherTenant, tenantId: "t2", correlationId: "spec" };
  assert.equal((await runInScope({ execution: inT2 }, () => $variable$s.get("x5")))?.version, 1);
});

Deno.test("$name$ by a caller who names none of their tenants is refused (TENANT_REQUIRED)", async () => {
  const ofTwo = userActor("someone-of-two", { roles: ["granted"], tenants: ["t1", "t2"] });
  await assert.rejects(
    () => application.commands.execute($new$(ofTwo, "x3")),
    (error) => isRefusal(error, "TENANT_REQUIRED"),
  );
  assert.equal(await versionOf("x3"), undefined);
});
$permissionTest$