import { type Token, token } from "@kit/kernel";
import type { OpeningHours, TimeOff } from "../../domain/opening-hours.ts";

/**
 * Where opening hours are kept, per practice (tenant): reads see the tenants the work reaches,
 * writes are for the work's tenant. Writers hold the calendar's lock (`calendarLock`).
 */
export interface OpeningHoursRepository {
  /** The hours of a calendar (closed when none were set). */
  get(calendarId: string): Promise<OpeningHours>;
  /** Replaces the calendar's weekly windows with the ones the hours hold. */
  saveWeekly(hours: OpeningHours): Promise<void>;
  /** Stores one new period of time off of the calendar. */
  addTimeOff(calendarId: string, timeOff: TimeOff): Promise<void>;
}

/** The token of {@linkcode OpeningHoursRepository}. */
export const OpeningHoursRepository: Token<OpeningHoursRepository> = token<
  OpeningHoursRepository
>("availability.OpeningHoursRepository");
