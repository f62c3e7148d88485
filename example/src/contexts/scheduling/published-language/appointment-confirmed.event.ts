import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** scheduling.appointment.confirmed: the patient confirmed an appointment. Its payload is the published contract: change it with a new version. */
export const AppointmentConfirmed = defineIntegrationEvent({
  type: "scheduling.appointment.confirmed",
  version: 1,
  payload: z.object({
    appointmentId: z.string(),
    calendarId: z.string(),
    patientId: z.string(),
    startsAt: z.iso.datetime(),
  }),
});
