import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema, instantSchema } from "../../../../shared-kernel/schemas.ts";
import { ListFreeSlots } from "../../application/queries/list-free-slots/list-free-slots.query.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";
import { Calendars } from "./calendars.routes.ts";

const slotsQuery = z.object({
  from: instantSchema().describe("Slots start at or after this instant"),
  until: instantSchema().describe("Slots start before this instant (31 days after from at most)"),
  appointmentTypeId: idSchema(),
});

const freeSlotsAnswer = zodSchema(
  z.object({
    timeZone: z.string().describe("The calendar's IANA time zone"),
    slots: z.array(z.object({ startsAt: z.iso.datetime(), endsAt: z.iso.datetime() })),
  }),
  { io: "output" },
);

const route = controllerRoute({
  group: Calendars,
  method: "GET",
  path: "/:calendarId/slots",
  permissions: [ListFreeSlots],
  summary: "List the free slots",
  params: zodSchema(z.object({ calendarId: idSchema() })),
  query: zodSchema(slotsQuery),
  response: { status: 200, description: "The free slots, in order", body: freeSlotsAnswer },
  cache: { etag: true, scope: "private", maxAge: 0 },
  errors: [
    "FORBIDDEN",
    schedulingErrors.INVALID_PERIOD,
    schedulingErrors.UNKNOWN_CALENDAR,
    schedulingErrors.UNKNOWN_APPOINTMENT_TYPE,
  ],
});

/**
 * GET /calendars/:calendarId/slots?from&until&appointmentTypeId: the free slots of a calendar for
 * an appointment type, starting in [from, until): on its grid (in its time zone), within its
 * opening hours and clear of time off, giving the minimum notice and within the horizon, and
 * overlapping no live appointment; the starts a booking would be accepted at now. Revalidated with
 * an ETag (304 when unchanged), private to the caller.
 */
@Controller(route)
export class ListFreeSlotsController {
  constructor(private readonly queries: QueryBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    const { from, until, appointmentTypeId } = request.query;
    return this.queries.execute(
      new ListFreeSlots(
        request.actor,
        request.params.calendarId,
        appointmentTypeId,
        new Date(from),
        new Date(until),
      ),
    );
  }
}
