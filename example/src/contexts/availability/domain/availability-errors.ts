import { defineErrorCodes } from "@kit/kernel";

/**
 * The error codes of the availability context, each with the one HTTP status it answers on every
 * route (see `defineErrorCodes`).
 */
export const availabilityErrors = defineErrorCodes("availability", {
  INVALID_OPENING_HOURS: {
    status: 422,
    description: "A window closes before it opens, or two windows of a weekday overlap",
  },
  INVALID_TIME_OFF: { status: 422, description: "The time off ends before it starts" },
  TIME_OFF_OVER_APPOINTMENTS: {
    status: 409,
    description: "Live appointments fall in the time off: cancel them first",
  },
  UNKNOWN_CALENDAR: { status: 404, description: "No calendar of this id in the practice" },
});
