import { Controller, type HttpRequest } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import {
  ListCalendars,
  type ListCalendarsResult,
} from "../../application/queries/list-calendars/list-calendars.query.ts";
import { calendarsAnswer } from "./calendar-view.schema.ts";
import { Calendars } from "./calendars.routes.ts";

/**
 * GET /calendars: the calendars of the practice the request runs for, with the appointment types
 * they offer. Revalidated with an ETag (304 when unchanged), private to the caller.
 */
@Controller({
  group: Calendars,
  method: "GET",
  path: "/",
  permissions: [ListCalendars],
  summary: "List the practice's calendars",
  response: { status: 200, description: "The practice's calendars", body: calendarsAnswer },
  cache: { etag: true, scope: "private", maxAge: 0 },
  errors: ["FORBIDDEN"],
})
export class ListCalendarsController {
  constructor(private readonly queries: QueryBus) {}

  handle(request: HttpRequest): Promise<ListCalendarsResult> {
    return this.queries.execute(new ListCalendars(request.actor));
  }
}
