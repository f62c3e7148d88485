import { type Token, token } from "@kit/kernel";

/** The counters analytics keeps (each increment runs in the delivery's unit of work). */
export interface Counters {
  /** Counts the booking (or cancellation) an event tells, of a calendar on the appointment's day. */
  countBooking(
    eventId: string,
    calendarId: string,
    day: string,
    change: "booked" | "cancelled",
  ): Promise<void>;
  /** Counts the registration an event tells, on its day. */
  countRegistration(eventId: string, day: string): Promise<void>;
}

/** The token of {@linkcode Counters}. */
export const Counters: Token<Counters> = token<Counters>("analytics.Counters");
