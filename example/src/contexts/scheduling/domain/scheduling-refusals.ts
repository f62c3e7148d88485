import type { ConceptError } from "@kit/kernel";
import { schedulingErrors } from "./scheduling-errors.ts";

/**
 * The refusals of the scheduling context, one factory per code, each built from the code's
 * declaration in `scheduling-errors.ts`: the error thrown and the status documented are one.
 */
export const schedulingRefusals = {
  unknownCalendar: (calendarId: string): ConceptError =>
    schedulingErrors.UNKNOWN_CALENDAR.error(`No calendar '${calendarId}'`, { calendarId }),
  calendarTaken: (calendarId: string): ConceptError =>
    schedulingErrors.CALENDAR_TAKEN.error(
      `Calendar '${calendarId}' was opened by someone else in the practice: choose another id`,
      { calendarId },
    ),
  unknownAppointmentType: (calendarId: string, appointmentTypeId: string): ConceptError =>
    schedulingErrors.UNKNOWN_APPOINTMENT_TYPE.error(
      `Calendar '${calendarId}' offers no appointment type '${appointmentTypeId}'`,
      { calendarId, appointmentTypeId },
    ),
  outsideAvailability: (startsAt: Date, endsAt: Date): ConceptError =>
    schedulingErrors.OUTSIDE_AVAILABILITY.error(
      `The calendar is not open from ${startsAt.toISOString()} to ${endsAt.toISOString()}`,
      { startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
    ),
  offGrid: (startsAt: Date, slotMinutes: number): ConceptError =>
    schedulingErrors.OFF_GRID.error(
      `${startsAt.toISOString()} is not on the calendar's ${slotMinutes}-minute grid`,
      { startsAt: startsAt.toISOString(), slotMinutes },
    ),
  bookingTooLate: (startsAt: Date, earliest: Date): ConceptError =>
    schedulingErrors.BOOKING_TOO_LATE.error(
      `Booking closes before ${startsAt.toISOString()}: the earliest bookable start is ${earliest.toISOString()}`,
      { startsAt: startsAt.toISOString(), earliest: earliest.toISOString() },
    ),
  bookingTooFar: (startsAt: Date, latest: Date): ConceptError =>
    schedulingErrors.BOOKING_TOO_FAR.error(
      `${startsAt.toISOString()} is beyond the booking horizon (${latest.toISOString()})`,
      { startsAt: startsAt.toISOString(), latest: latest.toISOString() },
    ),
  slotTaken: (startsAt: Date): ConceptError =>
    schedulingErrors.SLOT_TAKEN.error(`The slot at ${startsAt.toISOString()} is already booked`, {
      startsAt: startsAt.toISOString(),
    }),
  patientLimitReached: (patientId: string, limit: number): ConceptError =>
    schedulingErrors.PATIENT_LIMIT_REACHED.error(
      `Patient '${patientId}' already holds ${limit} upcoming appointments on this calendar`,
      { patientId, limit },
    ),
  appointmentNotFound: (appointmentId: string): ConceptError =>
    schedulingErrors.APPOINTMENT_NOT_FOUND.error(`No appointment '${appointmentId}'`, {
      appointmentId,
    }),
  appointmentEnded: (appointmentId: string): ConceptError =>
    schedulingErrors.APPOINTMENT_ENDED.error(`Appointment '${appointmentId}' has ended`, {
      appointmentId,
    }),
  appointmentCancelled: (appointmentId: string): ConceptError =>
    schedulingErrors.APPOINTMENT_CANCELLED.error(`Appointment '${appointmentId}' is cancelled`, {
      appointmentId,
    }),
  invalidPeriod: (from: Date, until: Date, why: string): ConceptError =>
    schedulingErrors.INVALID_PERIOD.error(why, {
      from: from.toISOString(),
      until: until.toISOString(),
    }),
  unknownClearance: (clearanceId: string): ConceptError =>
    schedulingErrors.UNKNOWN_CLEARANCE.error(`No clearance '${clearanceId}' on this calendar`, {
      clearanceId,
    }),
} as const;
