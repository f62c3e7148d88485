import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** scheduling.appointment.cancelled: an appointment was cancelled. Its payload is the published contract: change it with a new version. */
export const AppointmentCancelled = defineIntegrationEvent({
  type: "scheduling.appointment.cancelled",
  version: 1,
  payload: z.object({
    appointmentId: z.string(),
    calendarId: z.string(),
    patientId: z.string(),
    startsAt: z.iso.datetime(),
    reason: z.string(),
  }),
});
