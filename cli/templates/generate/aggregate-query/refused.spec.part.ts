
Deno.test("$name$ is refused to an actor without $permission$", async () => {
  await assert.rejects(
    () => application.queries.execute($new$(userActor("someone-else", { tenants: ["t1"] })$idArgument$)),
    ForbiddenError,
  );
});
