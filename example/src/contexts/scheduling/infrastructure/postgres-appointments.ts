import type { AppointmentFilters } from "../application/queries/list-appointments/list-appointments.query.ts";
import { expectSaved, requireTenant } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import { tenantRows } from "../../../platform/database/tenant-rows.ts";
import type {
  AppointmentRepository,
  BookedPeriod,
} from "../application/ports/appointment-repository.ts";
import { Appointment, type AppointmentState } from "../domain/appointment.ts";
import { schedulingRefusals } from "../domain/scheduling-refusals.ts";

/**
 * Appointments in `scheduling.appointments`, each row with its practice (tenant) and version:
 * reads see the tenants the work reaches; a save is `update ... where id, tenant and version`,
 * so a stale one changes nothing and is a `CONCURRENT_UPDATE`.
 */
export class PostgresAppointments implements AppointmentRepository {
  constructor(private readonly sql: Database) {}

  async find(id: string): Promise<Appointment | undefined> {
    const db = currentSql(this.sql);
    const [row] = await db`
      select * from scheduling.appointments where id = ${id} and ${tenantRows(db)}`;
    return row === undefined ? undefined : Appointment.restore(toState(row));
  }

  async add(appointment: Appointment): Promise<void> {
    const a = appointment.snapshot;
    try {
      await currentSql(this.sql)`
        insert into scheduling.appointments (id, calendar_id, tenant_id, appointment_type_id,
          patient_id, starts_at, ends_at, status, booked_by, cancellation_reason, notes, version)
        values (${a.id}, ${a.calendarId}, ${requireTenant()}, ${a.appointmentTypeId},
          ${a.patientId}, ${a.startsAt}, ${a.endsAt}, ${a.status}, ${a.bookedBy},
          ${a.cancellationReason ?? null}, ${a.notes ?? null}, 1)`;
    } catch (error) {
      if ((error as { code?: string }).code === "23505") {
        throw schedulingRefusals.slotTaken(a.startsAt);
      }
      throw error;
    }
    appointment.saved(1);
  }

  async save(appointment: Appointment): Promise<void> {
    const a = appointment.snapshot;
    let changed: number;
    try {
      changed = (await currentSql(this.sql)`
        update scheduling.appointments
        set status = ${a.status}, cancellation_reason = ${a.cancellationReason ?? null},
          starts_at = ${a.startsAt}, ends_at = ${a.endsAt}, notes = ${a.notes ?? null},
          version = version + 1
        where id = ${a.id} and tenant_id = ${requireTenant()} and version = ${a.version}`).count;
    } catch (error) {
      if ((error as { code?: string }).code === "23505") {
        throw schedulingRefusals.slotTaken(a.startsAt);
      }
      throw error;
    }
    appointment.saved(expectSaved(changed, { type: "appointment", id: a.id, version: a.version }));
  }

  async liveBetween(calendarId: string, from: Date, until: Date): Promise<BookedPeriod[]> {
    const db = currentSql(this.sql);
    const rows = await db`
      select id, starts_at, ends_at from scheduling.appointments
      where calendar_id = ${calendarId} and ${tenantRows(db)} and status <> 'cancelled'
        and starts_at < ${until} and ends_at > ${from}
      order by starts_at, id`;
    return rows.map((r) => ({ id: r.id, startsAt: r.starts_at, endsAt: r.ends_at }));
  }

  async page(
    filters: AppointmentFilters,
    limit: number,
    after?: { readonly startsAt: Date; readonly id: string },
  ): Promise<Appointment[]> {
    const db = currentSql(this.sql);
    const rows = await db`
      select * from scheduling.appointments
      where ${tenantRows(db)}
        ${filters.calendarId === undefined ? db`` : db`and calendar_id = ${filters.calendarId}`}
        ${filters.patientId === undefined ? db`` : db`and patient_id = ${filters.patientId}`}
        ${filters.status === undefined ? db`` : db`and status = ${filters.status}`}
        ${filters.from === undefined ? db`` : db`and starts_at >= ${filters.from}`}
        ${filters.until === undefined ? db`` : db`and starts_at < ${filters.until}`}
        ${after === undefined ? db`` : db`and (starts_at, id) > (${after.startsAt}, ${after.id})`}
      order by starts_at, id
      limit ${limit}`;
    return rows.map((row) => Appointment.restore(toState(row)));
  }

  async countUpcoming(calendarId: string, patientId: string, now: Date): Promise<number> {
    const db = currentSql(this.sql);
    const [row] = await db`
      select count(*)::int as n from scheduling.appointments
      where calendar_id = ${calendarId} and ${tenantRows(db)} and patient_id = ${patientId}
        and status <> 'cancelled' and ends_at > ${now}`;
    return row!.n;
  }
}

function toState(row: Record<string, unknown>): AppointmentState {
  return {
    id: row.id as string,
    calendarId: row.calendar_id as string,
    tenantId: row.tenant_id as string,
    appointmentTypeId: row.appointment_type_id as string,
    patientId: row.patient_id as string,
    startsAt: row.starts_at as Date,
    endsAt: row.ends_at as Date,
    status: row.status as AppointmentState["status"],
    bookedBy: row.booked_by as string,
    ...(row.cancellation_reason === null
      ? {}
      : { cancellationReason: row.cancellation_reason as string }),
    ...(row.notes === null ? {} : { notes: row.notes as string }),
    version: row.version as number,
  };
}
