import assert from "node:assert/strict";
import { composePlatform, modules } from "../src/platform/compose-application.ts";

Deno.test("the application composes with every context's module", () => {
  const application = composePlatform();
  assert.ok(application.commands);
  assert.ok(application.http.openapi().paths);
  assert.deepEqual(modules.map((module) => module.name), [...modules.map((m) => m.name)].sort());
});
