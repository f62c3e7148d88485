import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import { policies } from "../../../../platform/auth/access-policies.ts";
import { $permissions$ } from "../../$context$.permissions.ts";
import { $policyName$ } from "./$kebab$.policy.ts";

Deno.test("$name$ decides $permission$ and is registered with the platform", async () => {
  const actor = userActor("someone", { tenants: ["t1"] });
  const request = {
    actor,
    permission: $permissions$["$permission$"],
    message: {} as never,
    execution: { origin: "test", actor, tenantId: "t1", correlationId: "spec" },
  };
  assert.equal(await $policyName$.decide({ ...request, granted: true }), true);
  assert.equal(await $policyName$.decide({ ...request, granted: false }), false);
  assert.ok(policies.includes($policyName$));
});
