import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** scheduling.appointment.booked: an appointment was booked. Its payload is the published contract: change it with a new version. */
export const AppointmentBooked = defineIntegrationEvent({
  type: "scheduling.appointment.booked",
  version: 1,
  payload: z.object({
    appointmentId: z.string(),
    calendarId: z.string(),
    appointmentTypeId: z.string(),
    patientId: z.string(),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
  }),
});
