import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** scheduling.calendar-clearance.requested: a calendar is being cleared (its appointments in a period will be cancelled). Its payload is the published contract: change it with a new version. */
export const CalendarClearanceRequested = defineIntegrationEvent({
  type: "scheduling.calendar-clearance.requested",
  version: 1,
  payload: z.object({
    calendarId: z.string(),
    clearanceId: z.string(),
    appointmentIds: z.array(z.string()),
    reason: z.string(),
  }),
});
