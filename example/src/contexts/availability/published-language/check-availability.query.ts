import { type Actor, Query } from "@kit/kernel";

/**
 * Asks availability whether a calendar is open over a whole period (within its opening hours,
 * read on the wall clock of the calendar's IANA time zone, which scheduling keeps and names, and
 * clear of time off). Published for scheduling, which asks it before booking; it reveals no more
 * than yes or no, so it needs no permission.
 */
export class CheckAvailability extends Query<boolean> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly startsAt: Date,
    readonly endsAt: Date,
    readonly timeZone: string,
  ) {
    super(actor);
  }
}
