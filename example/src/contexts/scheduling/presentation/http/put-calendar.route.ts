import { acceptedSchema, defineRoute, type FunctionRoute, zodSchema } from "@kit/http";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { timeZoneSchema } from "./time-zone.schema.ts";
import { OpenCalendar } from "../../application/commands/open-calendar/open-calendar.command.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const calendarBody = z.object({ timeZone: timeZoneSchema().optional() }).optional();

/**
 * PUT /calendars/:calendarId, a function route (it answers two success statuses and sets
 * `Location`): 201 when this request opened the calendar, 200 when the caller opened it already,
 * 409 `CALENDAR_TAKEN` when someone else in the practice did (ids are the practice's own). An
 * optional body names its time zone (UTC when a new calendar's names none; an existing
 * calendar's is replaced only when one is named).
 */
export const putCalendar: FunctionRoute = defineRoute({
  method: "PUT",
  path: "/calendars/:calendarId",
  permissions: [OpenCalendar],
  operationId: "putCalendar",
  summary: "Open a calendar (idempotent)",
  tags: ["calendars"],
  request: {
    params: zodSchema(z.object({ calendarId: idSchema() })),
    body: zodSchema(calendarBody),
  },
  responses: {
    200: { description: "The caller opened the calendar already", body: acceptedSchema },
    201: { description: "The calendar was opened; Location names it", body: acceptedSchema },
  },
  security: ["bearer"],
  errors: ["FORBIDDEN", schedulingErrors.UNKNOWN_CALENDAR, schedulingErrors.CALENDAR_TAKEN],
}, async ({ params, body, context }) => {
  const { id, created } = await context.commands.execute(
    new OpenCalendar(context.execution.actor, params.calendarId, body?.timeZone),
  );
  return created
    ? { status: 201, body: { id }, headers: { location: `/calendars/${encodeURIComponent(id)}` } }
    : { status: 200, body: { id } };
});
