import { type Actor, type Token, token } from "@kit/kernel";

/** A period a calendar is open in: [startsAt, endsAt). */
export interface OpenPeriod {
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/**
 * What scheduling asks of availability, naming the calendar's time zone (its opening hours are
 * wall-clock times there).
 */
export interface AvailabilityGateway {
  /** True when the period lies within the opening hours and overlaps no time off. */
  isOpen(
    actor: Actor,
    calendarId: string,
    startsAt: Date,
    endsAt: Date,
    timeZone: string,
  ): Promise<boolean>;
  /**
   * The periods the calendar is open in overlapping [from, until): a period lies within one of
   * them exactly when {@linkcode AvailabilityGateway.isOpen} answers true.
   */
  openPeriods(
    actor: Actor,
    calendarId: string,
    from: Date,
    until: Date,
    timeZone: string,
  ): Promise<OpenPeriod[]>;
}

/** The token of {@linkcode AvailabilityGateway}. */
export const AvailabilityGateway: Token<AvailabilityGateway> = token<AvailabilityGateway>(
  "scheduling.AvailabilityGateway",
);
