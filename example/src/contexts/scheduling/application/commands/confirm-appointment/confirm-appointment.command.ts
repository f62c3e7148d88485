import { type Actor, AuthorizedCommand, Requires, RetryOnConflict } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/**
 * The patient confirms they will come. Needs 'appointment.confirm'; confirming twice is a no-op.
 * Sent again (up to 5 times) when another command saved the appointment meanwhile.
 */
@RetryOnConflict({ retries: 5 })
@Requires(schedulingPermissions["appointment.confirm"], {
  resource: (c: ConfirmAppointment) => ({ type: "appointment", id: c.appointmentId }),
})
export class ConfirmAppointment extends AuthorizedCommand<{ id: string }> {
  constructor(actor: Actor, readonly appointmentId: string) {
    super(actor);
  }
}
