import { type Actor, AuthorizedQuery, Requires } from "@kit/kernel";
import type { AppointmentStatus } from "../../../domain/appointment.ts";
import { schedulingPermissions } from "../../../scheduling.permissions.ts";
import type { AppointmentView } from "../appointment-view.ts";

/** The filters of ListAppointments; every one optional. */
export interface AppointmentFilters {
  readonly calendarId?: string;
  readonly patientId?: string;
  readonly status?: AppointmentStatus;
  /** Appointments starting at or after this instant. */
  readonly from?: Date;
  /** Appointments starting before this instant. */
  readonly until?: Date;
}

/** One page of ListAppointments, by start then id; `next` continues it (none: the last page). */
export interface AppointmentPage {
  readonly items: AppointmentView[];
  readonly next?: string;
}

/**
 * ListAppointments: the practice's appointments by start time, filtered, a page at a time
 * (keyset: a cursor names the last appointment seen, so a page never repeats or skips one when
 * others are booked meanwhile); needs 'appointment.read'. A patient lists only their own.
 */
@Requires(schedulingPermissions["appointment.read"])
export class ListAppointments extends AuthorizedQuery<AppointmentPage> {
  constructor(
    actor: Actor,
    readonly filters: AppointmentFilters,
    readonly limit: number,
    readonly after?: string,
  ) {
    super(actor);
  }
}
