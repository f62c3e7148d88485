import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema } from "../../../../shared-kernel/schemas.ts";
import { GetAppointment } from "../../application/queries/get-appointment/get-appointment.query.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";
import { appointmentAnswer, type AppointmentSerializer } from "./appointment.serializer.ts";
import { Appointments } from "./appointments.routes.ts";

const route = controllerRoute({
  group: Appointments,
  method: "GET",
  path: "/:appointmentId",
  permissions: [GetAppointment],
  summary: "Read an appointment",
  params: zodSchema(z.object({ appointmentId: idSchema() })),
  response: { status: 200, description: "The appointment", body: appointmentAnswer },
  errors: [schedulingErrors.APPOINTMENT_NOT_FOUND],
});

/**
 * GET /appointments/:appointmentId: one appointment; a patient reads only their own (another's
 * is not found), and only the staff see who booked it.
 */
@Controller(route)
export class GetAppointmentController {
  constructor(
    private readonly queries: QueryBus,
    private readonly serializer: AppointmentSerializer,
  ) {}

  async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    return this.serializer.serialize(
      await this.queries.execute(new GetAppointment(request.actor, request.params.appointmentId)),
    );
  }
}
