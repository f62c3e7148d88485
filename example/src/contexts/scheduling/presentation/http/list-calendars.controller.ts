import { Controller, controllerRoute, type RequestOf, type ResponseOf } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { ListCalendars } from "../../application/queries/list-calendars/list-calendars.query.ts";
import { calendarsAnswer } from "./calendar-view.schema.ts";
import { Calendars } from "./calendars.routes.ts";

const route = controllerRoute({
  group: Calendars,
  method: "GET",
  path: "/",
  permissions: [ListCalendars],
  summary: "List the practice's calendars",
  response: { status: 200, description: "The practice's calendars", body: calendarsAnswer },
  cache: { etag: true, scope: "private", maxAge: 0 },
  errors: ["FORBIDDEN"],
});

/**
 * GET /calendars: the calendars of the practice the request runs for, with the appointment types
 * they offer. Revalidated with an ETag (304 when unchanged), private to the caller.
 */
@Controller(route)
export class ListCalendarsController {
  constructor(private readonly queries: QueryBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.queries.execute(new ListCalendars(request.actor));
  }
}
