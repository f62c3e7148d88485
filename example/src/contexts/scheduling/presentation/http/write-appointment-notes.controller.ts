import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { WriteAppointmentNotes } from "../../application/commands/write-appointment-notes/write-appointment-notes.command.ts";
import { maxNotesLength } from "../../domain/appointment.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";
import { appointmentAnswer, type AppointmentSerializer } from "./appointment.serializer.ts";
import { Appointments } from "./appointments.routes.ts";

const route = controllerRoute({
  group: Appointments,
  method: "PUT",
  path: "/:appointmentId/notes",
  permissions: [WriteAppointmentNotes],
  summary: "Write an appointment's internal notes",
  params: zodSchema(z.object({ appointmentId: idSchema() })),
  body: zodSchema(
    z.object({
      notes: z.string().max(maxNotesLength),
      version: z.int().min(1).max(2_147_483_647),
    }).strict(),
  ),
  response: { status: 200, description: "The appointment, notes written", body: appointmentAnswer },
  errors: [schedulingErrors.APPOINTMENT_NOT_FOUND],
});

/**
 * PUT /appointments/:appointmentId/notes: the staff write an appointment's internal notes (empty
 * text clears them), sending the version they read; answers the appointment as it now is. A
 * patient is refused (403, 'appointment.annotate'); notes over a newer version are refused
 * (409 `CONCURRENT_UPDATE`), so no writer's notes are silently lost.
 */
@Controller(route)
export class WriteAppointmentNotesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly serializer: AppointmentSerializer,
  ) {}

  async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.serializer.serialize(
      await this.commands.execute(
        new WriteAppointmentNotes(
          request.actor,
          request.params.appointmentId,
          request.body.notes,
          request.body.version,
        ),
      ),
    );
  }
}
