
Deno.test("$name$ needs no permission: an actor with no role runs it", async () => {
  const answer = await application.$bus$.execute($new$(userActor("someone-without-a-role")));
  assert.ok($answerCheck$);
});
