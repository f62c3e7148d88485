import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/**
 * Asks the patient to confirm an appointment that is still only booked (the reminder of the
 * appointment-confirmation process): publishes AppointmentConfirmationRequested, telling them
 * when it is released unconfirmed. Answers whether it asked (not for a confirmed or cancelled
 * appointment). Needs 'appointment.request-confirmation' (the system's: no role has it).
 */
@Requires(schedulingPermissions["appointment.request-confirmation"], {
  resource: (c: RequestConfirmation) => ({ type: "appointment", id: c.appointmentId }),
})
export class RequestConfirmation extends AuthorizedCommand<{ requested: boolean }> {
  constructor(actor: Actor, readonly appointmentId: string, readonly releasedAt: Date) {
    super(actor);
  }
}
