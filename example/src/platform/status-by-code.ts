/**
 * The HTTP status of each domain code the spec leaves "not shown", decided once for every route
 * (a code answers the same status wherever it is met). Codes not listed follow their kind:
 * refusal 422, conflict 409, not found 404.
 */
export const statusByCode: Readonly<Record<string, number>> = {
  UNKNOWN_CALENDAR: 404,
  UNKNOWN_APPOINTMENT_TYPE: 422,
  OUTSIDE_AVAILABILITY: 422,
  OFF_GRID: 422,
  BOOKING_TOO_LATE: 422,
  BOOKING_TOO_FAR: 422,
  SLOT_TAKEN: 409,
  PATIENT_LIMIT_REACHED: 422,
  APPOINTMENT_NOT_FOUND: 404,
  APPOINTMENT_ENDED: 409,
  APPOINTMENT_CANCELLED: 409,
  TIME_OFF_OVER_APPOINTMENTS: 409,
  UNKNOWN_CLEARANCE: 404,
};
