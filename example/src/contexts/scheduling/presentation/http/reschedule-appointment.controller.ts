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
import { idSchema, instantSchema } from "../../../../shared-kernel/schemas.ts";
import { RescheduleAppointment } from "../../application/commands/reschedule-appointment/reschedule-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const moveBody = z.object({ startsAt: instantSchema() });

const route = controllerRoute({
  group: Appointments,
  method: "POST",
  path: "/:appointmentId/rescheduling",
  permissions: [RescheduleAppointment],
  summary: "Move an appointment",
  params: zodSchema(z.object({ appointmentId: idSchema() })),
  body: zodSchema(moveBody),
  response: { status: 201, description: "Moved", body: acceptedSchema },
  errors: [
    schedulingErrors.APPOINTMENT_NOT_FOUND,
    schedulingErrors.APPOINTMENT_ENDED,
    schedulingErrors.APPOINTMENT_CANCELLED,
    schedulingErrors.OUTSIDE_AVAILABILITY,
    schedulingErrors.OFF_GRID,
    schedulingErrors.BOOKING_TOO_LATE,
    schedulingErrors.BOOKING_TOO_FAR,
    schedulingErrors.SLOT_TAKEN,
  ],
});

/** POST /appointments/:appointmentId/rescheduling: moves an appointment to another start. */
@Controller(route)
export class RescheduleAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.commands.execute(
      new RescheduleAppointment(
        request.actor,
        request.params.appointmentId,
        new Date(request.body.startsAt),
      ),
    );
  }
}
