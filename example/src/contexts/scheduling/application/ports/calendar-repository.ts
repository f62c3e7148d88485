import { type Token, token } from "@kit/kernel";
import type { AppointmentType, Calendar } from "../../domain/calendar.ts";

/**
 * Where calendars are kept, per practice (tenant): every read sees only the calendars of the
 * tenants the work reaches, every write is for the work's tenant.
 */
export interface CalendarRepository {
  /** The calendar, or undefined when the work's practice has none with this id. */
  find(id: string): Promise<Calendar | undefined>;
  /** Every calendar of the practices the work reaches, sorted by id. */
  list(): Promise<Calendar[]>;
  /** Stores a new calendar; answers false (and stores nothing) when the id is taken. */
  add(calendar: Calendar): Promise<boolean>;
  /** Stores the calendar's time zone. */
  saveTimeZone(calendar: Calendar): Promise<void>;
  /** Stores one appointment type of the calendar (offered, or redefined). */
  saveAppointmentType(calendar: Calendar, type: AppointmentType): Promise<void>;
}

/** The token of {@linkcode CalendarRepository}. */
export const CalendarRepository: Token<CalendarRepository> = token<CalendarRepository>(
  "scheduling.CalendarRepository",
);
