import { defineIntegrationEvent } from "@kit/kernel";
import { z } from "zod";

/** scheduling.calendar.opened: a practitioner opened a calendar. Its payload is the published contract: change it with a new version. */
export const CalendarOpened = defineIntegrationEvent({
  type: "scheduling.calendar.opened",
  version: 1,
  payload: z.object({
    calendarId: z.string(),
    ownerId: z.string(),
  }),
});
