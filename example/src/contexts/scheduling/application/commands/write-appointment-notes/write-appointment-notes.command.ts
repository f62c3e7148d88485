import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";
import type { AppointmentView } from "../../queries/appointment-view.ts";

/**
 * The staff write an appointment's internal notes (empty text clears them). Needs
 * 'appointment.annotate' (the front desk and practitioners). `version` is the version the writer
 * read: notes written over another's newer notes are refused (`CONCURRENT_UPDATE`), never lost.
 * Answers the appointment as it now is.
 */
@Requires(schedulingPermissions["appointment.annotate"], {
  resource: (c: WriteAppointmentNotes) => ({ type: "appointment", id: c.appointmentId }),
})
export class WriteAppointmentNotes extends AuthorizedCommand<AppointmentView> {
  constructor(
    actor: Actor,
    readonly appointmentId: string,
    readonly notes: string,
    readonly version: number,
  ) {
    super(actor);
  }
}
