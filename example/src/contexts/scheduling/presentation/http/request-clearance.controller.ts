import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { RequestClearance } from "../../application/commands/request-clearance/request-clearance.command.ts";
import { Calendars } from "./calendars.routes.ts";

const clearanceBody = z.object({
  from: z.iso.datetime({ offset: true }),
  until: z.iso.datetime({ offset: true }),
  reason: z.string().min(1).max(500),
});

/**
 * POST /calendars/:calendarId/clearances: cancels, in the background, the calendar's appointments
 * in [from, until). Answers 202 with the clearance's id (the job's), to follow with GET.
 */
@Controller({
  group: Calendars,
  method: "POST",
  path: "/:calendarId/clearances",
  summary: "Clear a calendar over a period",
  params: zodSchema(z.object({ calendarId: z.string().min(1) })),
  body: zodSchema(clearanceBody),
  response: { status: 202, description: "The clearance is queued", body: acceptedSchema },
  errors: ["FORBIDDEN", "UNKNOWN_CALENDAR", "INVALID_PERIOD"],
})
export class RequestClearanceController {
  constructor(private readonly commands: CommandBus) {}

  async handle(
    request: HttpRequest<
      { params: { calendarId: string }; body: z.output<typeof clearanceBody> }
    >,
  ): Promise<{ id: string }> {
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
