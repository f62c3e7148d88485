import {
  acceptedSchema,
  Controller,
  controllerRoute,
  type RequestOf,
  type ResponseOf,
  zodSchema,
} from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema, instantSchema, textSchema } from "../../../../shared-kernel/schemas.ts";
import { RequestClearance } from "../../application/commands/request-clearance/request-clearance.command.ts";
import { Calendars } from "./calendars.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const clearanceBody = z.object({
  from: instantSchema(),
  until: instantSchema(),
  reason: textSchema(500),
});

const route = controllerRoute({
  group: Calendars,
  method: "POST",
  path: "/:calendarId/clearances",
  permissions: [RequestClearance],
  summary: "Clear a calendar over a period",
  params: zodSchema(z.object({ calendarId: idSchema() })),
  body: zodSchema(clearanceBody),
  response: {
    status: 202,
    description: "The clearance is queued; Location is where it can be followed",
    body: acceptedSchema,
    location: (answer: { id: string }, request: { params: { calendarId: string } }) =>
      `/calendars/${encodeURIComponent(request.params.calendarId)}/clearances/${
        encodeURIComponent(answer.id)
      }`,
  },
  errors: ["FORBIDDEN", schedulingErrors.UNKNOWN_CALENDAR, schedulingErrors.INVALID_PERIOD],
});

/**
 * POST /calendars/:calendarId/clearances: cancels, in the background, the calendar's appointments
 * in [from, until). Answers 202 with the clearance's id (the job's) and, in `Location`, the
 * route that follows it.
 */
@Controller(route)
export class RequestClearanceController {
  constructor(private readonly commands: CommandBus) {}

  async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    const { clearanceId } = await this.commands.execute(
      new RequestClearance(
        request.actor,
        request.params.calendarId,
        new Date(request.body.from),
        new Date(request.body.until),
        request.body.reason,
      ),
    );
    return { id: clearanceId };
  }
}
