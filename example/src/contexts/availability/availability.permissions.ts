import { definePermissions } from "@kit/kernel";

/** The permissions of the availability context. */
export const availabilityPermissions = definePermissions("availability", {
  // kit:begin permissions
  "availability.manage": { description: "Set a calendar's opening hours and time off" },
  // kit:end
});
