import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { availabilityPermissions } from "../../../availability.permissions.ts";

/**
 * Closes a calendar over a period; refused with `TIME_OFF_OVER_APPOINTMENTS` while live
 * appointments fall in it. Needs 'availability.manage' on the calendar.
 */
@Requires(availabilityPermissions["availability.manage"], {
  resource: (c: AddTimeOff) => ({ type: "calendar", id: c.calendarId }),
})
export class AddTimeOff extends AuthorizedCommand<{ id: string }> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly startsAt: Date,
    readonly endsAt: Date,
    readonly reason: string,
  ) {
    super(actor);
  }
}
