import { definePermissions } from "@kit/kernel";

/** The permissions of the notifications context. */
export const notificationsPermissions = definePermissions("notifications", {
  // kit:begin permissions
  "notification.read": {
    description: "TODO(domain): who may read notification",
  },
  "notification.send": {
    description: "TODO(domain): who may send notification",
  },
  // kit:end
});
