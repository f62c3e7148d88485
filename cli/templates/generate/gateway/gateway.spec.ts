import assert from "node:assert/strict";
import { providers } from "../../../platform/compose-application.ts";
import { $port$ } from "../application/ports/$upstream$-gateway.ts";
import { $adapter$, $registration$ } from "./$upstream$.gateway.ts";

Deno.test("$port$ reads $upstream$ and is provided by the platform", () => {
  assert.equal(new $adapter$().upstream, "$upstream$");
  assert.ok(providers.includes($registration$));
  assert.equal($registration$.provide, $port$);
});
