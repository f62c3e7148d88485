import assert from "node:assert/strict";
import { resolveGroup } from "@kit/http";
import { $name$ } from "./$kebab$.routes.ts";

Deno.test("$name$ prefixes its routes with $prefix$ and guards them", () => {
  const group = resolveGroup($name$);
  assert.equal(group.prefix, "$prefix$");
  assert.deepEqual(group.tags, ["$context$"]);
  assert.equal(group.guards.length, 1);
});
