import { acceptedSchema, defineRoute, type FunctionRoute, zodSchema } from "@kit/http";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { OpenCalendar } from "../../application/commands/open-calendar/open-calendar.command.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

/**
 * PUT /calendars/:calendarId, a function route (it answers two success statuses and sets
 * `Location`): 201 when this request opened the calendar, 200 when it was there already.
 */
export const putCalendar: FunctionRoute = defineRoute({
  method: "PUT",
  path: "/calendars/:calendarId",
  operationId: "putCalendar",
  summary: "Open a calendar (idempotent)",
  tags: ["calendars"],
  request: { params: zodSchema(z.object({ calendarId: idSchema() })) },
  responses: {
    200: { description: "The calendar was there already", body: acceptedSchema },
    201: { description: "The calendar was opened; Location names it", body: acceptedSchema },
  },
  security: ["bearer"],
  errors: ["FORBIDDEN", schedulingErrors.UNKNOWN_CALENDAR],
}, async ({ params, context }) => {
  const { id, created } = await context.commands.execute(
    new OpenCalendar(context.execution.actor, params.calendarId),
  );
  return created
    ? { status: 201, body: { id }, headers: { location: `/calendars/${encodeURIComponent(id)}` } }
    : { status: 200, body: { id } };
});
