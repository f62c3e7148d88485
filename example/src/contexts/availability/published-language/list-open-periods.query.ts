import { type Actor, Query } from "@kit/kernel";

/** A period a calendar is open in, as other contexts see it (ISO 8601 instants). */
export interface OpenPeriodView {
  readonly startsAt: string;
  readonly endsAt: string;
}

/**
 * Asks availability for the periods a calendar is open in that overlap [from, until): each
 * opening window of each day, read on the wall clock of the calendar's IANA time zone (which
 * scheduling keeps and names), less its time off. A period lies within one of them exactly when
 * CheckAvailability answers true. Published for scheduling, which lists free slots from them; it
 * needs no permission (scheduling's query checks its own).
 */
export class ListOpenPeriods extends Query<OpenPeriodView[]> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly from: Date,
    readonly until: Date,
    readonly timeZone: string,
  ) {
    super(actor);
  }
}
