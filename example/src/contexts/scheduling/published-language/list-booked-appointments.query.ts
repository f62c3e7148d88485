import { type Actor, Query } from "@kit/kernel";

/** A live appointment of a calendar, as other contexts see it. */
export interface BookedAppointment {
  readonly id: string;
  readonly startsAt: string;
  readonly endsAt: string;
}

/**
 * Asks scheduling for the live appointments of a calendar overlapping [from, until). Published for
 * availability (time off may not cover appointments); it answers ids and periods only.
 */
export class ListBookedAppointments extends Query<BookedAppointment[]> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly from: Date,
    readonly until: Date,
  ) {
    super(actor);
  }
}
