
Deno.test("$name$ answers a page of the tenant's $plural$ by id, and their total", async () => {
  for (const id of ["s3", "s1", "s2"]) await seed(id);
  await runInScope(
    { execution: { origin: "test", actor: ofAnotherTenant, tenantId: "t2", correlationId: "spec" } },
    () => $variable$s.add($build$("s0-of-t2")),
  );
  const first = await application.queries.execute($new$(actor, 1, 2));
  assert.deepEqual(first.items.map((item) => item.id), ["s1", "s2"]);
  assert.equal(first.total, 3);
  const second = await application.queries.execute($new$(actor, 2, 2));
  assert.deepEqual(second.items.map((item) => item.id), ["s3"]);
  const ofT2 = await application.queries.execute($new$(ofAnotherTenant));
  assert.deepEqual(ofT2.items.map((item) => item.id), ["s0-of-t2"]);
});

Deno.test("$name$ by a caller who names none of their tenants is refused (TENANT_REQUIRED)", async () => {
  const ofTwo = userActor("someone-of-two", { roles: ["granted"], tenants: ["t1", "t2"] });
  await assert.rejects(
    () => application.queries.execute($new$(ofTwo)),
    (error) => isRefusal(error, "TENANT_REQUIRED"),
  );
});
