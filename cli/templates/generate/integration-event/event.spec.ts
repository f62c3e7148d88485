import assert from "node:assert/strict";
import { $name$ } from "./$kebab$.event.ts";

Deno.test("$name$ is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await $name$.create({ id: "x1" });
  assert.equal(event.type, "$type$");
  assert.equal(event.version, 1);
  await assert.rejects(() => $name$.create({ id: 1 } as never), /payload of event '$type$' v1 is invalid/);
});
