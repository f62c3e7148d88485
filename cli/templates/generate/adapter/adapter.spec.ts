import assert from "node:assert/strict";
import { providers } from "../../../platform/compose-application.ts";
$testImports$import { $port$ } from "../application/ports/$kebab$.ts";
import { $adapter$, $registration$ } from "./$kebab$.adapter.ts";

Deno.test("$adapter$ is provided by the platform for $port$", () => {
  assert.ok(providers.includes($registration$));
  assert.equal($registration$.provide, $port$);
});
$test$