import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import type {
  AppointmentRepository,
  BookedPeriod,
} from "../application/ports/appointment-repository.ts";
import { Appointment, type AppointmentState } from "../domain/appointment.ts";
import { schedulingRefusals } from "../domain/scheduling-refusals.ts";

/** Appointments in `scheduling.appointments`. */
export class PostgresAppointments implements AppointmentRepository {
  constructor(private readonly sql: Database) {}

  async find(id: string): Promise<Appointment | undefined> {
    const [row] = await currentSql(this.sql)`
      select * from scheduling.appointments where id = ${id}`;
    return row === undefined ? undefined : Appointment.restore(toState(row));
  }

  async add(appointment: Appointment): Promise<void> {
    const a = appointment.snapshot;
    try {
      await currentSql(this.sql)`
        insert into scheduling.appointments (id, calendar_id, tenant_id, appointment_type_id,
          patient_id, starts_at, ends_at, status, booked_by, cancellation_reason)
        values (${a.id}, ${a.calendarId}, ${a.tenantId ?? null}, ${a.appointmentTypeId},
          ${a.patientId}, ${a.startsAt}, ${a.endsAt}, ${a.status}, ${a.bookedBy},
          ${a.cancellationReason ?? null})`;
    } catch (error) {
      if ((error as { code?: string }).code === "23505") {
        throw schedulingRefusals.slotTaken(a.startsAt);
      }
      throw error;
    }
  }

  async save(appointment: Appointment): Promise<void> {
    const a = appointment.snapshot;
    try {
      await currentSql(this.sql)`
        update scheduling.appointments
        set status = ${a.status}, cancellation_reason = ${a.cancellationReason ?? null},
          starts_at = ${a.startsAt}, ends_at = ${a.endsAt}
        where id = ${a.id}`;
    } catch (error) {
      if ((error as { code?: string }).code === "23505") {
        throw schedulingRefusals.slotTaken(a.startsAt);
      }
      throw error;
    }
  }

  async liveBetween(calendarId: string, from: Date, until: Date): Promise<BookedPeriod[]> {
    const rows = await currentSql(this.sql)`
      select id, starts_at, ends_at from scheduling.appointments
      where calendar_id = ${calendarId} and status <> 'cancelled'
        and starts_at < ${until} and ends_at > ${from}
      order by starts_at, id`;
    return rows.map((r) => ({ id: r.id, startsAt: r.starts_at, endsAt: r.ends_at }));
  }

  async countUpcoming(calendarId: string, patientId: string, now: Date): Promise<number> {
    const [row] = await currentSql(this.sql)`
      select count(*)::int as n from scheduling.appointments
      where calendar_id = ${calendarId} and patient_id = ${patientId}
        and status <> 'cancelled' and ends_at > ${now}`;
    return row!.n;
  }
}

function toState(row: Record<string, unknown>): AppointmentState {
  return {
    id: row.id as string,
    calendarId: row.calendar_id as string,
    ...(row.tenant_id === null ? {} : { tenantId: row.tenant_id as string }),
    appointmentTypeId: row.appointment_type_id as string,
    patientId: row.patient_id as string,
    startsAt: row.starts_at as Date,
    endsAt: row.ends_at as Date,
    status: row.status as AppointmentState["status"],
    bookedBy: row.booked_by as string,
    ...(row.cancellation_reason === null
      ? {}
      : { cancellationReason: row.cancellation_reason as string }),
  };
}
