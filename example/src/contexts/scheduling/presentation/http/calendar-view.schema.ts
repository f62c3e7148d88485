import { zodSchema } from "@kit/http";
import { z } from "zod";

/** A calendar as the API shows it (see `CalendarView`). */
export const calendarViewSchema = z.object({
  id: z.string(),
  ownerId: z.string(),
  timeZone: z.string().describe(
    "IANA time zone: the grid and opening hours are wall-clock times there",
  ),
  rules: z.object({
    slotMinutes: z.int(),
    minimumNoticeMinutes: z.int(),
    horizonDays: z.int(),
    patientLimit: z.int(),
  }),
  appointmentTypes: z.array(
    z.object({ id: z.string(), name: z.string(), durationMinutes: z.int() }),
  ),
});

/** The answer of GET /calendars/:calendarId. */
export const calendarAnswer = zodSchema(calendarViewSchema, { io: "output" });

/** The answer of GET /calendars. */
export const calendarsAnswer = zodSchema(z.object({ calendars: z.array(calendarViewSchema) }), {
  io: "output",
});
