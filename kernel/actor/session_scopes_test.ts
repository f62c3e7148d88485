import assert from "node:assert/strict";
import type { SessionScope } from "../mod.ts";

declare module "./session.ts" {
  interface SessionScopes {
    "calendars:read": true;
    "calendars:write": true;
  }
}

/** Stands for HasScope: takes only scopes of the project's vocabulary. */
function requireScopes(...scopes: SessionScope[]): readonly string[] {
  return scopes;
}

Deno.test("SessionScopes, augmented by a project, types scope names: a misspelt one does not compile", () => {
  assert.deepEqual(requireScopes("calendars:read", "calendars:write"), [
    "calendars:read",
    "calendars:write",
  ]);
  // @ts-expect-error "calendars:raed" is not a scope of the vocabulary
  requireScopes("calendars:raed");
});
