
Deno.test("$name$ needs no permission: an actor with no role runs it", async () => {
  await seed("x4");
  const withNoRole = userActor("someone-without-a-role", { tenants: ["t1"] });
  await application.commands.execute($new$(withNoRole, "x4"));
  assert.equal(await versionOf("x4"), 2);
});
