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
import { AddTimeOff } from "../../application/commands/add-time-off/add-time-off.command.ts";
import { CalendarAvailability } from "./availability.routes.ts";
import { availabilityErrors } from "../../domain/availability-errors.ts";

const timeOffBody = z.object({
  startsAt: instantSchema(),
  endsAt: instantSchema(),
  reason: textSchema(200),
});

const route = controllerRoute({
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
});

/** POST /calendars/:calendarId/time-off: closes the calendar over a period. */
@Controller(route)
export class AddTimeOffController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
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
