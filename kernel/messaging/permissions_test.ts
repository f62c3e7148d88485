import assert from "node:assert/strict";
import { AuthorizedCommand, definePermissions, Query, Requires } from "../mod.ts";
import { requirementOf } from "../internal.ts";

Deno.test("definePermissions answers typed, frozen permission values of the context", () => {
  const permissions = definePermissions("scheduling", {
    "appointment.cancel": { description: "Cancel an appointment" },
  });
  const cancel = permissions["appointment.cancel"];
  assert.deepEqual(cancel, {
    name: "appointment.cancel",
    context: "scheduling",
    description: "Cancel an appointment",
  });
  assert.ok(Object.isFrozen(cancel));
});

Deno.test("definePermissions names a bad context, a bad name and a missing description", () => {
  assert.throws(() => definePermissions("Bad", {}), /Invalid context name "Bad"/);
  assert.throws(
    () => definePermissions("s", { cancel: { description: "x" } }),
    { message: "Invalid permission name 'cancel' in context 's': use '<element>.<verb>'" },
  );
  assert.throws(
    () => definePermissions("s", { "a.b": { description: "" } }),
    { message: "Permission 'a.b' of context 's' needs a description" },
  );
});

Deno.test("Requires refuses something that is not a permission", () => {
  assert.throws(() => Requires("appointment.cancel" as never), /@Requires\(\) takes a permission/);
});

Deno.test("requirementOf answers the permission @Requires recorded on a message, none without it", () => {
  const permissions = definePermissions("scheduling", {
    "calendar.clear": { description: "Clear a calendar" },
  });
  @Requires(permissions["calendar.clear"])
  class ClearCalendar extends AuthorizedCommand<void> {}
  class Ping extends Query<void> {}
  assert.equal(requirementOf(ClearCalendar)?.permission, permissions["calendar.clear"]);
  assert.equal(requirementOf(Ping), undefined);
});
