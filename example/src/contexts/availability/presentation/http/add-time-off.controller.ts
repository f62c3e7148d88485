import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { AddTimeOff } from "../../application/commands/add-time-off/add-time-off.command.ts";
import { CalendarAvailability } from "./availability.routes.ts";

const timeOffBody = z.object({
  startsAt: z.iso.datetime({ offset: true }),
  endsAt: z.iso.datetime({ offset: true }),
  reason: z.string().min(1).max(200),
});

/** POST /calendars/:calendarId/time-off: closes the calendar over a period. */
@Controller({
  group: CalendarAvailability,
  method: "POST",
  path: "/time-off",
  summary: "Add time off",
  params: zodSchema(z.object({ calendarId: z.string().min(1) })),
  body: zodSchema(timeOffBody),
  response: { status: 201, description: "Added", body: acceptedSchema },
  errors: ["FORBIDDEN", "TIME_OFF_OVER_APPOINTMENTS", "INVALID_TIME_OFF"],
})
export class AddTimeOffController {
  constructor(private readonly commands: CommandBus) {}

  handle(
    request: HttpRequest<{ params: { calendarId: string }; body: z.output<typeof timeOffBody> }>,
  ): Promise<{ id: string }> {
    return this.commands.execute(
      new AddTimeOff(
        request.actor,
        request.params.calendarId,
        new Date(request.body.startsAt),
        new Date(request.body.endsAt),
        request.body.reason,
      ),
    );
  }
}
