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
import { idSchema, textSchema } from "../../../../shared-kernel/schemas.ts";
import { DefineAppointmentType } from "../../application/commands/define-appointment-type/define-appointment-type.command.ts";
import { Calendars } from "./calendars.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const typeBody = z.object({
  name: textSchema(100),
  durationMinutes: z.int().min(5).max(480),
});

const route = controllerRoute({
  group: Calendars,
  method: "PUT",
  path: "/:calendarId/appointment-types/:appointmentTypeId",
  permissions: [DefineAppointmentType],
  summary: "Offer an appointment type",
  params: zodSchema(
    z.object({ calendarId: idSchema(), appointmentTypeId: idSchema() }),
  ),
  body: zodSchema(typeBody),
  response: { status: 200, description: "Offered", body: acceptedSchema },
  errors: ["FORBIDDEN", schedulingErrors.UNKNOWN_CALENDAR],
});

/** PUT /calendars/:calendarId/appointment-types/:appointmentTypeId: offers a type of appointment. */
@Controller(route)
export class DefineAppointmentTypeController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.commands.execute(
      new DefineAppointmentType(
        request.actor,
        request.params.calendarId,
        request.params.appointmentTypeId,
        request.body.name,
        request.body.durationMinutes,
      ),
    );
  }
}
