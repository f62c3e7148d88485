import { type Token, token } from "@kit/kernel";
import type { Appointment } from "../../domain/appointment.ts";
import type { AppointmentFilters } from "../queries/list-appointments/list-appointments.query.ts";

/** A live appointment's period, as overlap checks need it. */
export interface BookedPeriod {
  readonly id: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/**
 * Where appointments are kept, per practice (tenant): every read sees only the appointments of
 * the tenants the work reaches, every write is for the work's tenant.
 */
export interface AppointmentRepository {
  /** The appointment with the version it was stored at, or undefined. */
  find(id: string): Promise<Appointment | undefined>;
  /**
   * Stores a new appointment (version 1); a second live one at the same start fails with
   * SLOT_TAKEN.
   */
  add(appointment: Appointment): Promise<void>;
  /**
   * Stores the appointment's new state if it is still at the version it was loaded at, else
   * fails with `CONCURRENT_UPDATE` (another command saved it meanwhile) and stores nothing.
   */
  save(appointment: Appointment): Promise<void>;
  /** The live (not cancelled) appointments of a calendar overlapping [from, until). */
  liveBetween(calendarId: string, from: Date, until: Date): Promise<BookedPeriod[]>;
  /** How many live appointments the patient holds on the calendar that end after `now`. */
  countUpcoming(calendarId: string, patientId: string, now: Date): Promise<number>;
  /**
   * Up to `limit` appointments matching the filters, by start then id, after the one named
   * (keyset pagination: stable while others are added).
   */
  page(
    filters: AppointmentFilters,
    limit: number,
    after?: { readonly startsAt: Date; readonly id: string },
  ): Promise<Appointment[]>;
}

/** The token of {@linkcode AppointmentRepository}. */
export const AppointmentRepository: Token<AppointmentRepository> = token<AppointmentRepository>(
  "scheduling.AppointmentRepository",
);
