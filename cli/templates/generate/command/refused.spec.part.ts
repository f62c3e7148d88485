
Deno.test("$name$ is refused to an actor without $permission$", async () => {
  await assert.rejects(() => application.$bus$.execute($new$(userActor("someone-else"))), ForbiddenError);
});
