import { type Token, token } from "@kit/kernel";

/** The counters analytics keeps (each increment runs in the delivery's unit of work). */
export interface Counters {
  /** Counts a booking (or a cancellation) of a calendar on the appointment's day. */
  countBooking(calendarId: string, day: string, change: "booked" | "cancelled"): Promise<void>;
  /** Counts a registration on its day. */
  countRegistration(day: string): Promise<void>;
}

/** The token of {@linkcode Counters}. */
export const Counters: Token<Counters> = token<Counters>("analytics.Counters");
