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
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { ConfirmAppointment } from "../../application/commands/confirm-appointment/confirm-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const route = controllerRoute({
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
});

/**
 * POST /appointments/:appointmentId/confirmation: the patient confirms. The spec declares no error
 * beyond the guard's; this route also declares what confirming can meet (ADR 0001).
 */
@Controller(route)
export class ConfirmAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.commands.execute(
      new ConfirmAppointment(request.actor, request.params.appointmentId),
    );
  }
}
