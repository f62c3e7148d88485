import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/**
 * scheduling.appointment.confirmation-requested: an appointment is still not confirmed a day
 * before its start (the appointment-confirmation process's reminder); unconfirmed at `releasedAt`,
 * it is cancelled and its slot released. Its payload is the published contract: change it with a
 * new version.
 */
export const AppointmentConfirmationRequested = defineIntegrationEvent({
  type: "scheduling.appointment.confirmation-requested",
  version: 1,
  payload: z.object({
    appointmentId: z.string(),
    calendarId: z.string(),
    patientId: z.string(),
    startsAt: z.iso.datetime(),
    releasedAt: z.iso.datetime(),
  }),
});

/**
 * How many hours before its start the patient of an unconfirmed appointment is asked to confirm it
 * (at once when booked or moved later than that): the appointment-confirmation process's `remind`.
 */
export const confirmationRequestedHoursBefore = 24;
