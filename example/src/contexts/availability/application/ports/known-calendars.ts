import { type Actor, type Token, token } from "@kit/kernel";

/** What availability asks of scheduling: does the work's practice have this calendar? */
export interface KnownCalendars {
  /** True when the practice of the work has a calendar of this id. */
  exists(actor: Actor, calendarId: string): Promise<boolean>;
}

/** The token of {@linkcode KnownCalendars}. */
export const KnownCalendars: Token<KnownCalendars> = token<KnownCalendars>(
  "availability.KnownCalendars",
);
