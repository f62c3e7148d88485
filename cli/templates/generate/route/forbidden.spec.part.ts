
Deno.test("$title$ answers 403 to a caller without the permission", async () => {
  const response = await call(await testToken({ sub: "someone-else", tenants: ["t1"] }));
  assert.equal(response.status, 403);
  await response.body?.cancel();
});
