import assert from "node:assert/strict";
import { $name$ } from "./$kebab$.ts";
import { $instance$, $arguments$ } from "./$builderFile$";

Deno.test("$name$.create keeps its id and refuses an empty one", () => {
  assert.equal($instance$("x1").id, "x1");
  const [, ...others] = $arguments$("x1");
  assert.throws(() => $name$.create("", ...others), /needs an id/);
});

Deno.test("$name$.restore gives back the $name$ its snapshot kept", () => {
  const snapshot = $instance$("x1").snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snapshot)), snapshot, "a snapshot is plain JSON");
  assert.deepEqual($name$.restore(snapshot).snapshot(), snapshot);
});
