import { type Token, token } from "@kit/kernel";
import type { Calendar } from "../../domain/calendar.ts";

/** Where calendars are kept. */
export interface CalendarRepository {
  /** The calendar, or undefined when there is none with this id. */
  find(id: string): Promise<Calendar | undefined>;
  /** Stores a new calendar; answers false (and stores nothing) when the id is taken. */
  add(calendar: Calendar): Promise<boolean>;
  /** Stores the calendar's appointment types. */
  saveAppointmentTypes(calendar: Calendar): Promise<void>;
  /**
   * Holds the calendar until the unit of work ends, so that bookings of one calendar are decided
   * one at a time (two bookings of one slot: exactly one wins).
   */
  lockForBooking(id: string): Promise<void>;
}

/** The token of {@linkcode CalendarRepository}. */
export const CalendarRepository: Token<CalendarRepository> = token<CalendarRepository>(
  "scheduling.CalendarRepository",
);
