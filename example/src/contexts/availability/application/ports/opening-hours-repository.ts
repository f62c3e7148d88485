import { type Token, token } from "@kit/kernel";
import type { OpeningHours } from "../../domain/opening-hours.ts";

/** Where opening hours are kept. */
export interface OpeningHoursRepository {
  /** The hours of a calendar (closed when none were set). */
  get(calendarId: string): Promise<OpeningHours>;
  /** Stores the hours (weekly windows and time off). */
  save(hours: OpeningHours): Promise<void>;
}

/** The token of {@linkcode OpeningHoursRepository}. */
export const OpeningHoursRepository: Token<OpeningHoursRepository> = token<
  OpeningHoursRepository
>("availability.OpeningHoursRepository");
