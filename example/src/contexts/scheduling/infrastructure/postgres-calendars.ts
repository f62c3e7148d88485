import { requireTenant } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import { tenantRows } from "../../../platform/database/tenant-rows.ts";
import type { CalendarRepository } from "../application/ports/calendar-repository.ts";
import { type AppointmentType, Calendar } from "../domain/calendar.ts";

/**
 * Calendars in `scheduling.calendars` and `scheduling.appointment_types`, each row with its
 * practice (tenant) and keyed by it (a calendar's id is unique within its practice): reads see the
 * tenants the work reaches, writes are for the work's tenant.
 */
export class PostgresCalendars implements CalendarRepository {
  constructor(private readonly sql: Database) {}

  async find(id: string): Promise<Calendar | undefined> {
    const db = currentSql(this.sql);
    const [row] = await db`
      select * from scheduling.calendars where id = ${id} and ${tenantRows(db)}`;
    if (row === undefined) return undefined;
    const types = await db`
      select id, name, duration_minutes from scheduling.appointment_types
      where calendar_id = ${id} and tenant_id = ${row.tenant_id} order by id`;
    return restore(row, types);
  }

  async list(): Promise<Calendar[]> {
    const db = currentSql(this.sql);
    const rows = await db`
      select * from scheduling.calendars where ${tenantRows(db)} order by id`;
    if (rows.length === 0) return [];
    const types = await db`
      select calendar_id, tenant_id, id, name, duration_minutes
      from scheduling.appointment_types where ${tenantRows(db)} order by calendar_id, id`;
    return rows.map((row) =>
      restore(
        row,
        types.filter((t) => t.calendar_id === row.id && t.tenant_id === row.tenant_id),
      )
    );
  }

  async add(calendar: Calendar): Promise<boolean> {
    const rows = await currentSql(this.sql)`
      insert into scheduling.calendars (id, tenant_id, owner_id, slot_minutes,
        minimum_notice_minutes, horizon_days, patient_limit, time_zone, opened_at)
      values (${calendar.id}, ${requireTenant()}, ${calendar.ownerId},
        ${calendar.rules.slotMinutes}, ${calendar.rules.minimumNoticeMinutes},
        ${calendar.rules.horizonDays}, ${calendar.rules.patientLimit}, ${calendar.timeZone}, now())
      on conflict (tenant_id, id) do nothing
      returning id`;
    return rows.length === 1;
  }

  async saveTimeZone(calendar: Calendar): Promise<void> {
    await currentSql(this.sql)`
      update scheduling.calendars set time_zone = ${calendar.timeZone}
      where id = ${calendar.id} and tenant_id = ${requireTenant()}`;
  }

  async saveAppointmentType(calendar: Calendar, type: AppointmentType): Promise<void> {
    // One row, upserted: two types defined at once never overwrite each other.
    await currentSql(this.sql)`
      insert into scheduling.appointment_types (calendar_id, tenant_id, id, name, duration_minutes)
      values (${calendar.id}, ${requireTenant()}, ${type.id}, ${type.name}, ${type.durationMinutes})
      on conflict (tenant_id, calendar_id, id)
      do update set name = excluded.name, duration_minutes = excluded.duration_minutes`;
  }
}

/** A calendar from its row and the rows of the appointment types it offers. */
// deno-lint-ignore no-explicit-any
function restore(row: Record<string, any>, types: readonly Record<string, any>[]): Calendar {
  return Calendar.restore({
    id: row.id,
    tenantId: row.tenant_id,
    ownerId: row.owner_id,
    rules: {
      slotMinutes: row.slot_minutes,
      minimumNoticeMinutes: row.minimum_notice_minutes,
      horizonDays: row.horizon_days,
      patientLimit: row.patient_limit,
    },
    timeZone: row.time_zone,
    appointmentTypes: types.map((t) => ({
      id: t.id,
      name: t.name,
      durationMinutes: t.duration_minutes,
    })),
  });
}
