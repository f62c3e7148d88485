import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { RescheduleAppointment } from "../../application/commands/reschedule-appointment/reschedule-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";

const moveBody = z.object({ startsAt: z.iso.datetime({ offset: true }) });

/** POST /appointments/:appointmentId/rescheduling: moves an appointment to another start. */
@Controller({
  group: Appointments,
  method: "POST",
  path: "/:appointmentId/rescheduling",
  summary: "Move an appointment",
  params: zodSchema(z.object({ appointmentId: z.string().min(1) })),
  body: zodSchema(moveBody),
  response: { status: 201, description: "Moved", body: acceptedSchema },
  errors: [
    "APPOINTMENT_NOT_FOUND",
    "APPOINTMENT_ENDED",
    "APPOINTMENT_CANCELLED",
    "OUTSIDE_AVAILABILITY",
    "OFF_GRID",
    "BOOKING_TOO_LATE",
    "BOOKING_TOO_FAR",
    "SLOT_TAKEN",
  ],
})
export class RescheduleAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(
    request: HttpRequest<
      { params: { appointmentId: string }; body: z.output<typeof moveBody> }
    >,
  ): Promise<{ id: string }> {
    return this.commands.execute(
      new RescheduleAppointment(
        request.actor,
        request.params.appointmentId,
        new Date(request.body.startsAt),
      ),
    );
  }
}
