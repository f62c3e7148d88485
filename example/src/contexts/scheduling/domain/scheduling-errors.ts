import { defineErrorCodes } from "@kit/kernel";

/**
 * The error codes of the scheduling context, each with the one HTTP status it answers on every
 * route: the routes list these declarations, the pipeline answers their status, the OpenAPI
 * document shows it. The refusals (`scheduling-refusals.ts`) are built from them.
 */
export const schedulingErrors = defineErrorCodes("scheduling", {
  APPOINTMENT_CANCELLED: { status: 409, description: "The appointment is cancelled" },
  APPOINTMENT_ENDED: { status: 409, description: "The appointment has ended" },
  APPOINTMENT_NOT_FOUND: {
    status: 404,
    description: "No appointment of this id in the practice",
  },
  BOOKING_TOO_FAR: { status: 422, description: "The start is beyond the booking horizon" },
  BOOKING_TOO_LATE: {
    status: 422,
    description: "Booking has closed for this start (the minimum notice)",
  },
  CALENDAR_TAKEN: {
    status: 409,
    description: "Someone else in the practice opened a calendar of this id already",
  },
  INVALID_CURSOR: { status: 400, description: "The cursor is not one this API gave" },
  INVALID_PERIOD: {
    status: 422,
    description: "The period does not end after it starts, or spans more than the route allows",
  },
  OFF_GRID: { status: 422, description: "The start is not on the calendar's slot grid" },
  OUTSIDE_AVAILABILITY: { status: 422, description: "The calendar is not open then" },
  PATIENT_LIMIT_REACHED: {
    status: 422,
    description: "The patient holds as many upcoming appointments as the calendar allows",
  },
  SLOT_TAKEN: { status: 409, description: "The slot is booked already" },
  UNKNOWN_APPOINTMENT_TYPE: {
    status: 422,
    description: "The calendar offers no appointment type of this id",
  },
  UNKNOWN_CALENDAR: { status: 404, description: "No calendar of this id in the practice" },
  UNKNOWN_CLEARANCE: { status: 404, description: "No clearance of this id on this calendar" },
});
