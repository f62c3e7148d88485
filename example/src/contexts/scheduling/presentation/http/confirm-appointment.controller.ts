import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { ConfirmAppointment } from "../../application/commands/confirm-appointment/confirm-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

/**
 * POST /appointments/:appointmentId/confirmation: the patient confirms. The spec declares no error
 * beyond the guard's; this route also declares what confirming can meet (ADR 0001).
 */
@Controller({
  group: Appointments,
  method: "POST",
  path: "/:appointmentId/confirmation",
  permissions: [ConfirmAppointment],
  summary: "Confirm an appointment",
  params: zodSchema(z.object({ appointmentId: idSchema() })),
  response: { status: 201, description: "Confirmed", body: acceptedSchema },
  errors: [
    schedulingErrors.APPOINTMENT_NOT_FOUND,
    schedulingErrors.APPOINTMENT_ENDED,
    schedulingErrors.APPOINTMENT_CANCELLED,
  ],
})
export class ConfirmAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: HttpRequest<{ params: { appointmentId: string } }>): Promise<{ id: string }> {
    return this.commands.execute(
      new ConfirmAppointment(request.actor, request.params.appointmentId),
    );
  }
}
