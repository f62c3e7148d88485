import assert from "node:assert/strict";
import { resolveGroup } from "@kit/http";
import { People } from "./people.routes.ts";

Deno.test("People prefixes its routes with /people and guards them", () => {
  const group = resolveGroup(People);
  assert.equal(group.prefix, "/people");
  assert.deepEqual(group.tags, ["identity"]);
  assert.equal(group.guards.length, 1);
});
