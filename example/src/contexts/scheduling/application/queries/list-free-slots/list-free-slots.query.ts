import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";

/** The longest period ListFreeSlots answers for (days). */
export const freeSlotsMaxDays = 31;

/** A free slot: the period an appointment booked there would take (ISO 8601 instants). */
export interface FreeSlot {
  readonly startsAt: string;
  readonly endsAt: string;
}

/** What ListFreeSlots answers: the calendar's time zone and its free slots, in order. */
export interface FreeSlots {
  /** The calendar's IANA time zone, in which its grid and opening hours are read. */
  readonly timeZone: string;
  readonly slots: FreeSlot[];
}

/**
 * ListFreeSlots: the free slots of a calendar of the practice for an appointment type, starting
 * in [from, until) (31 days at most): the starts a booking of that type would be accepted at now,
 * save the patient's own limit of upcoming appointments. Needs 'calendar.read'.
 */
@Requires(schedulingPermissions["calendar.read"], {
  resource: (q: ListFreeSlots) => ({ type: "calendar", id: q.calendarId }),
})
export class ListFreeSlots extends AuthorizedQuery<FreeSlots> {
  constructor(
    actor: Actor,
    readonly calendarId: string,
    readonly appointmentTypeId: string,
    readonly from: Date,
    readonly until: Date,
  ) {
    super(actor);
  }
}
