import { definePermissions } from "@kit/kernel";

/** The permissions of the scheduling context. */
export const schedulingPermissions = definePermissions("scheduling", {
  // kit:begin permissions
  "appointment.annotate": {
    description: "Write an appointment's internal notes (the staff of the practice)",
  },
  "appointment.book": { description: "Book an appointment on a calendar" },
  "appointment.cancel": { description: "Cancel an appointment" },
  "appointment.confirm": { description: "Confirm an appointment" },
  "appointment.read": {
    description: "Read appointments: a patient their own, the staff the practice's",
  },
  "appointment.release": {
    description: "Release an unconfirmed appointment's slot (the confirmation process: the system)",
  },
  "appointment.request-confirmation": {
    description:
      "Ask a patient to confirm their appointment (the confirmation process: the system)",
  },
  "calendar.clear": { description: "Cancel a calendar's appointments over a period" },
  "calendar.open": { description: "Open a calendar and offer appointment types" },
  "calendar.read": { description: "Read the calendars of the practice and what they offer" },
  // kit:end
});
