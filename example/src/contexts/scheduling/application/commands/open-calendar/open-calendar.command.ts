import { type Actor, AuthorizedCommand, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/** What OpenCalendar answers: the calendar's id, and whether this command created it. */
export interface OpenCalendarResult {
  readonly id: string;
  readonly created: boolean;
}

/**
 * Opens a calendar for the practitioner sending it, in the practice of the work, in a time zone
 * (an IANA name; UTC when none is named). Opening one that exists already changes nothing, save
 * its time zone when one is named (PUT semantics). Needs 'calendar.open'.
 */
@Requires(schedulingPermissions["calendar.open"], {
  resource: (c: OpenCalendar) => ({ type: "calendar", id: c.calendarId }),
})
export class OpenCalendar extends AuthorizedCommand<OpenCalendarResult> {
  constructor(actor: Actor, readonly calendarId: string, readonly timeZone?: string) {
    super(actor);
  }
}
