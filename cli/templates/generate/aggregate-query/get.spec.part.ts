
const notFound = (error: unknown) => error instanceof ConceptError && error.kind === "not-found";

Deno.test("$name$ answers the $aggregate$ of the id", async () => {
  await seed("g1");
  assert.equal((await application.queries.execute($new$(actor, "g1"))).id, "g1");
});

Deno.test("$name$ of another tenant's $aggregate$ is refused as not found", async () => {
  await seed("g2");
  await assert.rejects(() => application.queries.execute($new$(ofAnotherTenant, "g2")), notFound);
});
