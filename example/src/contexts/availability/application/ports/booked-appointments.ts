import { type Actor, type Token, token } from "@kit/kernel";

/** What availability asks of scheduling: which live appointments fall in a period? */
export interface BookedAppointments {
  /** The ids of live appointments of the calendar overlapping [from, until). */
  between(actor: Actor, calendarId: string, from: Date, until: Date): Promise<{ id: string }[]>;
}

/** The token of {@linkcode BookedAppointments}. */
export const BookedAppointments: Token<BookedAppointments> = token<BookedAppointments>(
  "availability.BookedAppointments",
);
