import { ConceptError } from "@kit/kernel";

/**
 * The refusals of the scheduling context, one factory per code. Their HTTP statuses are set
 * once, in the platform's `statusByCode` (a code has one status on every route).
 */
export const schedulingRefusals = {
  unknownCalendar: (calendarId: string): ConceptError =>
    ConceptError.notFound("UNKNOWN_CALENDAR", `No calendar '${calendarId}'`, { calendarId }),
  unknownAppointmentType: (calendarId: string, appointmentTypeId: string): ConceptError =>
    ConceptError.refusal(
      "UNKNOWN_APPOINTMENT_TYPE",
      `Calendar '${calendarId}' offers no appointment type '${appointmentTypeId}'`,
      { calendarId, appointmentTypeId },
    ),
  outsideAvailability: (startsAt: Date, endsAt: Date): ConceptError =>
    ConceptError.refusal(
      "OUTSIDE_AVAILABILITY",
      `The calendar is not open from ${startsAt.toISOString()} to ${endsAt.toISOString()}`,
      { startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
    ),
  offGrid: (startsAt: Date, slotMinutes: number): ConceptError =>
    ConceptError.refusal(
      "OFF_GRID",
      `${startsAt.toISOString()} is not on the calendar's ${slotMinutes}-minute grid`,
      { startsAt: startsAt.toISOString(), slotMinutes },
    ),
  bookingTooLate: (startsAt: Date, earliest: Date): ConceptError =>
    ConceptError.refusal(
      "BOOKING_TOO_LATE",
      `Booking closes before ${startsAt.toISOString()}: the earliest bookable start is ${earliest.toISOString()}`,
      { startsAt: startsAt.toISOString(), earliest: earliest.toISOString() },
    ),
  bookingTooFar: (startsAt: Date, latest: Date): ConceptError =>
    ConceptError.refusal(
      "BOOKING_TOO_FAR",
      `${startsAt.toISOString()} is beyond the booking horizon (${latest.toISOString()})`,
      { startsAt: startsAt.toISOString(), latest: latest.toISOString() },
    ),
  slotTaken: (startsAt: Date): ConceptError =>
    ConceptError.conflict(
      "SLOT_TAKEN",
      `The slot at ${startsAt.toISOString()} is already booked`,
      { startsAt: startsAt.toISOString() },
    ),
  patientLimitReached: (patientId: string, limit: number): ConceptError =>
    ConceptError.refusal(
      "PATIENT_LIMIT_REACHED",
      `Patient '${patientId}' already holds ${limit} upcoming appointments on this calendar`,
      { patientId, limit },
    ),
  appointmentNotFound: (appointmentId: string): ConceptError =>
    ConceptError.notFound(
      "APPOINTMENT_NOT_FOUND",
      `No appointment '${appointmentId}'`,
      { appointmentId },
    ),
  appointmentEnded: (appointmentId: string): ConceptError =>
    ConceptError.conflict(
      "APPOINTMENT_ENDED",
      `Appointment '${appointmentId}' has ended`,
      { appointmentId },
    ),
  appointmentCancelled: (appointmentId: string): ConceptError =>
    ConceptError.conflict(
      "APPOINTMENT_CANCELLED",
      `Appointment '${appointmentId}' is cancelled`,
      { appointmentId },
    ),
  unknownClearance: (clearanceId: string): ConceptError =>
    ConceptError.notFound(
      "UNKNOWN_CLEARANCE",
      `No clearance '${clearanceId}' on this calendar`,
      { clearanceId },
    ),
} as const;
