import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { GetCalendar } from "../../application/queries/get-calendar/get-calendar.query.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";
import { calendarAnswer } from "./calendar-view.schema.ts";
import { Calendars } from "./calendars.routes.ts";

const route = controllerRoute({
  group: Calendars,
  method: "GET",
  path: "/:calendarId",
  permissions: [GetCalendar],
  summary: "Read a calendar",
  params: zodSchema(z.object({ calendarId: idSchema() })),
  response: { status: 200, description: "The calendar", body: calendarAnswer },
  cache: { etag: true, scope: "private", maxAge: 0 },
  errors: ["FORBIDDEN", schedulingErrors.UNKNOWN_CALENDAR],
});

/**
 * GET /calendars/:calendarId: one calendar of the practice, its rules and appointment types.
 * Revalidated with an ETag (304 when unchanged), private to the caller.
 */
@Controller(route)
export class GetCalendarController {
  constructor(private readonly queries: QueryBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.queries.execute(new GetCalendar(request.actor, request.params.calendarId));
  }
}
