import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** scheduling.appointment.rescheduled: an appointment moved to another start. Its payload is the published contract: change it with a new version. */
export const AppointmentRescheduled = defineIntegrationEvent({
  type: "scheduling.appointment.rescheduled",
  version: 1,
  payload: z.object({
    appointmentId: z.string(),
    calendarId: z.string(),
    patientId: z.string(),
    previousStartsAt: z.iso.datetime(),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
  }),
});
