import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/**
 * Books an appointment of a type on a calendar at a start, for a patient (the sender when none is
 * named; booking for someone else takes the receptionist or practitioner role). Needs
 * 'appointment.book'.
 */
@Requires(schedulingPermissions["appointment.book"], {
  resource: (c: BookAppointment) => ({ type: "calendar", id: c.calendarId }),
})
export class BookAppointment extends AuthorizedCommand<{ id: string }> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly appointmentTypeId: string,
    readonly startsAt: Date,
    readonly patientId: string = actor.id,
  ) {
    super(actor);
  }
}
