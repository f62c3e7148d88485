import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema, instantSchema, textSchema } from "../../../../shared-kernel/schemas.ts";
import { AddTimeOff } from "../../application/commands/add-time-off/add-time-off.command.ts";
import { CalendarAvailability } from "./availability.routes.ts";
import { availabilityErrors } from "../../domain/availability-errors.ts";

const timeOffBody = z.object({
  startsAt: instantSchema(),
  endsAt: instantSchema(),
  reason: textSchema(200),
});

/** POST /calendars/:calendarId/time-off: closes the calendar over a period. */
@Controller({
  group: CalendarAvailability,
  method: "POST",
  path: "/time-off",
  permissions: [AddTimeOff],
  summary: "Add time off",
  params: zodSchema(z.object({ calendarId: idSchema() })),
  body: zodSchema(timeOffBody),
  response: { status: 201, description: "Added", body: acceptedSchema },
  errors: [
    "FORBIDDEN",
    availabilityErrors.UNKNOWN_CALENDAR,
    availabilityErrors.TIME_OFF_OVER_APPOINTMENTS,
    availabilityErrors.INVALID_TIME_OFF,
  ],
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
