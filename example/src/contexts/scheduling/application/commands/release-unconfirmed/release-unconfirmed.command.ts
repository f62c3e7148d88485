import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/**
 * Releases the slot of an appointment nobody confirmed in time (the last deadline of the
 * appointment-confirmation process): cancels it, for that reason, when it is still only booked;
 * a confirmed, cancelled or ended appointment is left as it is. Answers whether it released.
 * Needs 'appointment.release' (the system's: no role has it).
 */
@Requires(schedulingPermissions["appointment.release"], {
  resource: (c: ReleaseUnconfirmed) => ({ type: "appointment", id: c.appointmentId }),
})
export class ReleaseUnconfirmed extends AuthorizedCommand<{ released: boolean }> {
  constructor(actor: Actor, readonly appointmentId: string) {
    super(actor);
  }
}
