import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { idSchema, instantSchema } from "../../../../shared-kernel/schemas.ts";
import { ListAppointments } from "../../application/queries/list-appointments/list-appointments.query.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";
import { appointmentPageAnswer, type AppointmentSerializer } from "./appointment.serializer.ts";
import { Appointments } from "./appointments.routes.ts";

const listQuery = z.object({
  calendarId: idSchema().optional(),
  patientId: idSchema().optional(),
  status: z.enum(["booked", "confirmed", "cancelled"]).optional(),
  from: instantSchema().optional(),
  until: instantSchema().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().min(1).max(200).optional(),
});

const route = controllerRoute({
  group: Appointments,
  method: "GET",
  path: "/",
  permissions: [ListAppointments],
  summary: "List appointments",
  query: zodSchema(listQuery),
  response: { status: 200, description: "One page, by start time", body: appointmentPageAnswer },
  errors: [schedulingErrors.INVALID_CURSOR],
});

/**
 * GET /appointments?calendarId&patientId&status&from&until&limit&after: the practice's
 * appointments by start time, a page at a time (`next` of a page is the `after` of the next one);
 * a patient lists only their own.
 */
@Controller(route)
export class ListAppointmentsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly serializer: AppointmentSerializer,
  ) {}

  async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    const { limit, after, from, until, calendarId, patientId, status } = request.query;
    const page = await this.queries.execute(
      new ListAppointments(
        request.actor,
        {
          ...(calendarId === undefined ? {} : { calendarId }),
          ...(patientId === undefined ? {} : { patientId }),
          ...(status === undefined ? {} : { status }),
          ...(from === undefined ? {} : { from: new Date(from) }),
          ...(until === undefined ? {} : { until: new Date(until) }),
        },
        limit,
        after,
      ),
    );
    return this.serializer.serializePage(page);
  }
}
