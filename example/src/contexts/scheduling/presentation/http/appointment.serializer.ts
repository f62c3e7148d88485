import { Serializer, withFieldAccess, zodSchema } from "@kit/http";
import { z } from "zod";
import type { AppointmentView } from "../../application/queries/appointment-view.ts";
import type { AppointmentPage } from "../../application/queries/list-appointments/list-appointments.query.ts";

/** An appointment as the API shows it: instants as ISO text. */
export const appointmentBody = z.object({
  id: z.string(),
  calendarId: z.string(),
  appointmentTypeId: z.string(),
  patientId: z.string(),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  status: z.enum(["booked", "confirmed", "cancelled"]),
  /** Who booked it: the front desk's business, not the patient's. */
  bookedBy: z.string().optional(),
  /** The staff's internal notes: never shown to the patient. */
  notes: z.string().optional(),
  cancellationReason: z.string().optional(),
  version: z.int(),
});

/** The staff of the practice: they see who booked an appointment, and its internal notes. */
const staff = { roles: ["receptionist", "practitioner"] };

/** The answer of GET /appointments/:appointmentId; `bookedBy` and `notes` only for the staff. */
export const appointmentAnswer = withFieldAccess(zodSchema(appointmentBody, { io: "output" }), {
  bookedBy: staff,
  notes: staff,
});

/**
 * An appointment in a list: without who booked it nor its notes (field access reaches no nested
 * item).
 */
const listedAppointment = appointmentBody.omit({ bookedBy: true, notes: true });

/** One page of GET /appointments; `next` continues it. */
export const appointmentPageAnswer = zodSchema(
  z.object({ items: z.array(listedAppointment), next: z.string().optional() }),
  { io: "output" },
);

/** Turns appointment views into the API's bodies (instants as ISO text). */
@Serializer()
export class AppointmentSerializer {
  /** One appointment. */
  serialize(view: AppointmentView): z.output<typeof appointmentBody> {
    return {
      id: view.id,
      calendarId: view.calendarId,
      appointmentTypeId: view.appointmentTypeId,
      patientId: view.patientId,
      startsAt: view.startsAt.toISOString(),
      endsAt: view.endsAt.toISOString(),
      status: view.status,
      bookedBy: view.bookedBy,
      ...(view.notes === undefined ? {} : { notes: view.notes }),
      ...(view.cancellationReason === undefined
        ? {}
        : { cancellationReason: view.cancellationReason }),
      version: view.version,
    };
  }

  /** A page of appointments. */
  serializePage(page: AppointmentPage): {
    items: z.output<typeof listedAppointment>[];
    next?: string;
  } {
    return {
      items: page.items.map((view) => {
        const { bookedBy: _, notes: __, ...listed } = this.serialize(view);
        return listed;
      }),
      ...(page.next === undefined ? {} : { next: page.next }),
    };
  }
}
