import { type Actor, Query } from "@kit/kernel";

/**
 * Asks scheduling whether the practice of the work has a calendar of this id. Published for
 * availability, which keeps opening hours and time off only for calendars of the practice; it
 * reveals no more than yes or no about the work's own practice, so it needs no permission.
 */
export class CalendarExists extends Query<boolean> {
  constructor(actor: Actor, readonly calendarId: string) {
    super(actor);
  }
}
