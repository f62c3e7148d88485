import { definePermissions } from "@kit/kernel";

/** The permissions of the $name$ context. */
export const $camel$Permissions = definePermissions("$name$", {
  // kit:begin permissions
  // kit:end
});
