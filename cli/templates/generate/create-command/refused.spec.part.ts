
Deno.test("$name$ is refused to an actor without $permission$", async () => {
  await assert.rejects(() => application.commands.execute(new $name$(userActor("someone-else", { tenants: ["t1"] }), ...$arguments$("x4"))), ForbiddenError);
  assert.equal(await versionOf("x4"), undefined);
});
