import { definePermissions } from "@kit/kernel";

/** The permissions of the analytics context. */
export const analyticsPermissions = definePermissions("analytics", {
  // kit:begin permissions
  // kit:end
});
