import { type Actor, AuthorizedCommand, Requires, RetryOnConflict } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/**
 * Moves an appointment to another start on its calendar, under the same rules as a booking.
 * Needs 'appointment.book' (moving is booking again); a patient moves only their own. Sent again
 * (up to 5 times) when another command saved the appointment meanwhile.
 */
@RetryOnConflict({ retries: 5 })
@Requires(schedulingPermissions["appointment.book"], {
  resource: (c: RescheduleAppointment) => ({ type: "appointment", id: c.appointmentId }),
})
export class RescheduleAppointment extends AuthorizedCommand<{ id: string }> {
  constructor(actor: Actor, readonly appointmentId: string, readonly startsAt: Date) {
    super(actor);
  }
}
