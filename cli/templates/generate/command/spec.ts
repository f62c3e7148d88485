import assert from "node:assert/strict";
import { type Actor, $forbiddenImport$userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { $camel$Module } from "../../../$context$.module.ts";
$permissionsImport$import { $name$ } from "./$kebab$.$kind$.ts";

const application = testApplication([$camel$Module], {
  grants: { granted: [$granted$] },
});

$messageUnderTest$

Deno.test("$name$ runs through the $busName$ bus", async () => {
  const answer = await application.$bus$.execute($new$(userActor("someone", { roles: ["granted"] })));
  assert.ok($answerCheck$);
});
$permissionTest$