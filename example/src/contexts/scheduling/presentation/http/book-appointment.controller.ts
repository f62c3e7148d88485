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
import { BookAppointment } from "../../application/commands/book-appointment/book-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";
import { schedulingErrors } from "../../domain/scheduling-errors.ts";

const bookingBody = z.object({
  calendarId: idSchema(),
  appointmentTypeId: idSchema(),
  startsAt: instantSchema(),
  patientId: idSchema().optional().describe("Defaults to the caller"),
});

const route = controllerRoute({
  group: Appointments,
  method: "POST",
  path: "/",
  permissions: [BookAppointment],
  summary: "Book an appointment",
  body: zodSchema(bookingBody),
  response: { status: 201, description: "Booked", body: acceptedSchema },
  errors: [
    schedulingErrors.UNKNOWN_CALENDAR,
    schedulingErrors.UNKNOWN_APPOINTMENT_TYPE,
    schedulingErrors.OUTSIDE_AVAILABILITY,
    schedulingErrors.OFF_GRID,
    schedulingErrors.BOOKING_TOO_LATE,
    schedulingErrors.BOOKING_TOO_FAR,
    schedulingErrors.SLOT_TAKEN,
    schedulingErrors.PATIENT_LIMIT_REACHED,
  ],
  idempotent: true,
});

/**
 * POST /appointments/: books an appointment (for the caller, unless staff name a patient). A
 * client whose answer was lost retries with the same `Idempotency-Key` and gets the first booking
 * again, never a second one.
 */
@Controller(route)
export class BookAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    const { calendarId, appointmentTypeId, startsAt, patientId } = request.body;
    return this.commands.execute(
      new BookAppointment(
        request.actor,
        calendarId,
        appointmentTypeId,
        new Date(startsAt),
        patientId ?? request.actor.id,
      ),
    );
  }
}
