import assert from "node:assert/strict";
import { resolveGroup } from "@kit/http";
import { Notifications } from "./notifications.routes.ts";

Deno.test("Notifications prefixes its routes with /notifications and guards them", () => {
  const group = resolveGroup(Notifications);
  assert.equal(group.prefix, "/notifications");
  assert.deepEqual(group.tags, ["notifications"]);
  assert.equal(group.guards.length, 1);
});
