import assert from "node:assert/strict";
import { $name$ } from "./$context$-errors.ts";

Deno.test("the $context$ context's error codes answer the statuses its clients were told", () => {
  const statuses = Object.fromEntries(
    Object.values($name$).map((declared) => [declared.code, declared.error("spec").status]),
  );
  assert.deepEqual(statuses, {
    // kit:begin statuses
    // kit:end
  });
});
