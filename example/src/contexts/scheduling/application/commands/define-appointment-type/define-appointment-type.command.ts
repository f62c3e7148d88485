import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/** Offers (or redefines) an appointment type on a calendar. Needs 'calendar.open'. */
@Requires(schedulingPermissions["calendar.open"], {
  resource: (c: DefineAppointmentType) => ({ type: "calendar", id: c.calendarId }),
})
export class DefineAppointmentType extends AuthorizedCommand<{ id: string }> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly appointmentTypeId: string,
    readonly name: string,
    readonly durationMinutes: number,
  ) {
    super(actor);
  }
}
