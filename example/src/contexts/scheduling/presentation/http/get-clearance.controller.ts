import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import { type QueryBus, queuedJobStatuses } from "@kit/kernel";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { GetClearance } from "../../application/queries/get-clearance/get-clearance.query.ts";
import { Calendars } from "./calendars.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const clearanceStatus = z.object({
  status: z.enum(queuedJobStatuses),
  done: z.int().min(0),
  total: z.int().min(0).optional(),
});

const route = controllerRoute({
  group: Calendars,
  method: "GET",
  path: "/:calendarId/clearances/:clearanceId",
  permissions: [GetClearance],
  summary: "Follow a clearance",
  params: zodSchema(z.object({ calendarId: idSchema(), clearanceId: idSchema() })),
  response: {
    status: 200,
    description: "Where the clearance stands",
    body: zodSchema(clearanceStatus, { io: "output" }),
  },
  errors: ["FORBIDDEN", schedulingErrors.UNKNOWN_CLEARANCE],
});

/** GET /calendars/:calendarId/clearances/:clearanceId: how a clearance is going. */
@Controller(route)
export class GetClearanceController {
  constructor(private readonly queries: QueryBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.queries.execute(
      new GetClearance(request.actor, request.params.calendarId, request.params.clearanceId),
    );
  }
}
