import { acceptedSchema, Controller, type HttpRequest, zodSchema } from "@kit/http";
import type { CommandBus } from "@kit/kernel";
import { z } from "zod";
import { BookAppointment } from "../../application/commands/book-appointment/book-appointment.command.ts";
import { Appointments } from "./appointments.routes.ts";

const bookingBody = z.object({
  calendarId: z.string().min(1),
  appointmentTypeId: z.string().min(1),
  startsAt: z.iso.datetime({ offset: true }),
  patientId: z.string().min(1).optional().describe("Defaults to the caller"),
});

/** POST /appointments/: books an appointment (for the caller, unless staff name a patient). */
@Controller({
  group: Appointments,
  method: "POST",
  path: "/",
  summary: "Book an appointment",
  body: zodSchema(bookingBody),
  response: { status: 201, description: "Booked", body: acceptedSchema },
  errors: [
    "UNKNOWN_CALENDAR",
    "UNKNOWN_APPOINTMENT_TYPE",
    "OUTSIDE_AVAILABILITY",
    "OFF_GRID",
    "BOOKING_TOO_LATE",
    "BOOKING_TOO_FAR",
    "SLOT_TAKEN",
    "PATIENT_LIMIT_REACHED",
  ],
})
export class BookAppointmentController {
  constructor(private readonly commands: CommandBus) {}

  handle(
    request: HttpRequest<{ body: z.output<typeof bookingBody> }>,
  ): Promise<{ id: string }> {
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
