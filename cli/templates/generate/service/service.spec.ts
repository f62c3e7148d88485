import assert from "node:assert/strict";
import { composeService } from "../../apps/$context$/service.ts";

Deno.test("the $context$ service composes with its context alone", () => {
  const application = composeService();
  assert.ok(application.commands);
  assert.ok(application.queries);
});
