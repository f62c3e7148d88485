import type { ConceptError } from "@kit/kernel";
import { availabilityErrors } from "./availability-errors.ts";

/**
 * The refusals of the availability context met before its aggregate decides (the aggregate
 * refuses INVALID_OPENING_HOURS, INVALID_TIME_OFF and TIME_OFF_OVER_APPOINTMENTS itself).
 */
export const availabilityRefusals = {
  /** The practice of the work has no calendar of this id (another practice's is unknown). */
  unknownCalendar: (calendarId: string): ConceptError =>
    availabilityErrors.UNKNOWN_CALENDAR.error(`No calendar '${calendarId}'`, { calendarId }),
} as const;
