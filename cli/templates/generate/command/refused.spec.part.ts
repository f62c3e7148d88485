
Deno.test("$name$ is refused to an actor without $permission$", async () => {
  await assert.rejects(() => application.$bus$.execute(new $name$(userActor("someone-else"))), ForbiddenError);
});
