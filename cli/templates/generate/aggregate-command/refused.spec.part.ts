
Deno.test("$name$ is refused to an actor without $permission$", async () => {
  await assert.rejects(() => application.commands.execute($new$(userActor("someone-else", { tenants: ["t1"] }), "x1")), ForbiddenError);
});
