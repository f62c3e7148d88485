import assert from "node:assert/strict";
import { currentScope, runInScope, systemActor } from "../mod.ts";

const execution = { origin: "test", actor: systemActor, correlationId: "c-1" } as const;

Deno.test("runInScope calls the function with the argument given, in the scope, across awaits", async () => {
  const seen: unknown[] = [];
  const answer = await runInScope({ execution }, async (argument: string) => {
    seen.push(argument, currentScope()?.execution.correlationId);
    await Promise.resolve();
    seen.push(currentScope()?.execution.correlationId);
    return argument.length;
  }, "abc");
  assert.equal(answer, 3);
  assert.deepEqual(seen, ["abc", "c-1", "c-1"]);
  assert.equal(currentScope(), undefined);
});

Deno.test("runInScope without an argument calls the function with none", () => {
  const counts = runInScope({ execution }, function (this: unknown, ...rest: unknown[]) {
    return rest.length;
  });
  assert.equal(counts, 0);
  // An argument given as undefined is passed all the same.
  assert.equal(runInScope({ execution }, (...rest: unknown[]) => rest.length, undefined), 1);
});
