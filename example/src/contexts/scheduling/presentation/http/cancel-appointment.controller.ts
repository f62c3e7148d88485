import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema, textSchema } from "../../../../shared-kernel/schemas.ts";
import { CancelAppointment } from "../../application/commands/cancel-appointment/cancel-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

/** POST /appointments/:appointmentId/cancellation: cancels an appointment, for a reason. */
@Controller({
  group: Appointments,
  method: "POST",
  path: "/:appointmentId/cancellation",
  permissions: [CancelAppointment],
  summary: "Cancel an appointment",
  params: zodSchema(z.object({ appointmentId: idSchema() })),
  body: zodSchema(z.object({ reason: textSchema(500) })),
  response: { status: 201, description: "Cancelled", body: acceptedSchema },
  errors: ["FORBIDDEN", schedulingErrors.APPOINTMENT_NOT_FOUND, schedulingErrors.APPOINTMENT_ENDED],
})
export class CancelAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(
    request: HttpRequest<{ params: { appointmentId: string }; body: { reason: string } }>,
  ): Promise<{ id: string }> {
    return this.commands.execute(
      new CancelAppointment(request.actor, request.params.appointmentId, request.body.reason),
    );
  }
}
