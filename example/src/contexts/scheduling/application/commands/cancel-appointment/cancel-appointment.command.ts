import { type Actor, AuthorizedCommand, Requires, RetryOnConflict } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/**
 * Cancels an appointment, for a reason. Needs 'appointment.cancel' on the appointment: a patient
 * cancels their own, staff any of their practice. Cancelling a cancelled appointment is a no-op;
 * an ended one is refused (`APPOINTMENT_ENDED`). Sent again (up to 5 times) when another command
 * saved the appointment meanwhile, so racing commands on one appointment apply one after another.
 */
@RetryOnConflict({ retries: 5 })
@Requires(schedulingPermissions["appointment.cancel"], {
  resource: (c: CancelAppointment) => ({ type: "appointment", id: c.appointmentId }),
})
export class CancelAppointment extends AuthorizedCommand<{ id: string }> {
  constructor(actor: Actor, readonly appointmentId: string, readonly reason: string) {
    super(actor);
  }
}
