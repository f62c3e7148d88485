
Deno.test("the $context$ context is given $adapter$ where it asks for $port$", () => {
  const application = testApplication([$camel$Module]);
  assert.ok(application.resolve($port$) instanceof $adapter$);
});
