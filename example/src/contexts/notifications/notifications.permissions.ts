import { definePermissions } from "@kit/kernel";

/** The permissions of the notifications context. */
export const notificationsPermissions = definePermissions("notifications", {
  // kit:begin permissions
  "notification.read": { description: "Read one's own notifications and preferences" },
  "notification.send": { description: "Send a message to a person" },
  "reminder.plan": { description: "Plan (or cancel) the reminder of an appointment" },
  "reminder.send": { description: "Send the reminder of an appointment (the reminder job)" },
  // kit:end
});
