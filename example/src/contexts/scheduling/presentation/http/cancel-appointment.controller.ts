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
import { CancelAppointment } from "../../application/commands/cancel-appointment/cancel-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const route = controllerRoute({
  group: Appointments,
  method: "POST",
  path: "/:appointmentId/cancellation",
  permissions: [CancelAppointment],
  summary: "Cancel an appointment",
  params: zodSchema(z.object({ appointmentId: idSchema() })),
  body: zodSchema(z.object({ reason: textSchema(500) })),
  response: { status: 201, description: "Cancelled", body: acceptedSchema },
  errors: ["FORBIDDEN", schedulingErrors.APPOINTMENT_NOT_FOUND, schedulingErrors.APPOINTMENT_ENDED],
});

/** POST /appointments/:appointmentId/cancellation: cancels an appointment, for a reason. */
@Controller(route)
export class CancelAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.commands.execute(
      new CancelAppointment(request.actor, request.params.appointmentId, request.body.reason),
    );
  }
}
