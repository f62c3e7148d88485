import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { availabilityPermissions } from "../../../availability.permissions.ts";
import type { OpeningWindow } from "../../../domain/opening-hours.ts";

/** Replaces a calendar's weekly opening windows. Needs 'availability.manage' on the calendar. */
@Requires(availabilityPermissions["availability.manage"], {
  resource: (c: SetOpeningHours) => ({ type: "calendar", id: c.calendarId }),
})
export class SetOpeningHours extends AuthorizedCommand<void> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly windows: readonly OpeningWindow[],
  ) {
    super(actor);
  }
}
