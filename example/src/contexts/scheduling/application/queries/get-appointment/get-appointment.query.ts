import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";
import type { AppointmentView } from "../appointment-view.ts";

/**
 * GetAppointment: one appointment of the practice; needs 'appointment.read'. A patient reads only
 * their own: another's answers `APPOINTMENT_NOT_FOUND`, as a missing one does.
 */
@Requires(schedulingPermissions["appointment.read"], {
  resource: (q: GetAppointment) => ({ type: "appointment", id: q.appointmentId }),
})
export class GetAppointment extends AuthorizedQuery<AppointmentView> {
  constructor(actor: Actor, readonly appointmentId: string) {
    super(actor);
  }
}
