import { type Actor, type Token, token } from "@kit/kernel";

/** What scheduling asks of availability: is the calendar open over a whole period? */
export interface AvailabilityGateway {
  /** True when the period lies within the opening hours and overlaps no time off. */
  isOpen(actor: Actor, calendarId: string, startsAt: Date, endsAt: Date): Promise<boolean>;
}

/** The token of {@linkcode AvailabilityGateway}. */
export const AvailabilityGateway: Token<AvailabilityGateway> = token<AvailabilityGateway>(
  "scheduling.AvailabilityGateway",
);
