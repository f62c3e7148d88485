import type { BookingRules, Calendar } from "../../domain/calendar.ts";

/** A calendar as its readers see it: its owner, the rules it books by, the types it offers. */
export interface CalendarView {
  readonly id: string;
  /** The practitioner whose calendar it is. */
  readonly ownerId: string;
  /** Its IANA time zone: its grid and opening hours are wall-clock times there. */
  readonly timeZone: string;
  readonly rules: BookingRules;
  /** The appointment types it offers, sorted by id. */
  readonly appointmentTypes: {
    readonly id: string;
    readonly name: string;
    readonly durationMinutes: number;
  }[];
}

/** The view of a calendar. */
export function calendarView(calendar: Calendar): CalendarView {
  return {
    id: calendar.id,
    ownerId: calendar.ownerId,
    timeZone: calendar.timeZone,
    rules: { ...calendar.rules },
    appointmentTypes: [...calendar.appointmentTypes]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(({ id, name, durationMinutes }) => ({ id, name, durationMinutes })),
  };
}
