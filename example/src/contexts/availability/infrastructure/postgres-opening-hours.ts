import { requireTenant } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import { tenantRows } from "../../../platform/database/tenant-rows.ts";
import type { OpeningHoursRepository } from "../application/ports/opening-hours-repository.ts";
import { OpeningHours, type TimeOff } from "../domain/opening-hours.ts";

/**
 * Opening hours in `availability.opening_windows` and `availability.time_off`, each row with its
 * practice (tenant): reads see the tenants the work reaches, writes are for the work's tenant.
 */
export class PostgresOpeningHours implements OpeningHoursRepository {
  constructor(private readonly sql: Database) {}

  async get(calendarId: string): Promise<OpeningHours> {
    const db = currentSql(this.sql);
    const windows = await db`
      select weekday, opens_at, closes_at from availability.opening_windows
      where calendar_id = ${calendarId} and ${tenantRows(db)} order by weekday, opens_at`;
    const timeOff = await db`
      select id, starts_at, ends_at, reason from availability.time_off
      where calendar_id = ${calendarId} and ${tenantRows(db)} order by starts_at, id`;
    return OpeningHours.restore(
      calendarId,
      windows.map((w) => ({ weekday: w.weekday, opensAt: w.opens_at, closesAt: w.closes_at })),
      timeOff.map((t) => ({
        id: t.id,
        startsAt: t.starts_at,
        endsAt: t.ends_at,
        reason: t.reason,
      })),
    );
  }

  async saveWeekly(hours: OpeningHours): Promise<void> {
    // Replaced as a whole; the handler holds the calendar's lock, so two replacements never
    // interleave (no duplicate key between one's delete and the other's insert).
    const db = currentSql(this.sql);
    const tenantId = requireTenant();
    await db`
      delete from availability.opening_windows
      where calendar_id = ${hours.calendarId} and tenant_id = ${tenantId}`;
    for (const w of hours.weekly) {
      await db`
        insert into availability.opening_windows
          (calendar_id, tenant_id, weekday, opens_at, closes_at)
        values (${hours.calendarId}, ${tenantId}, ${w.weekday}, ${w.opensAt}, ${w.closesAt})`;
    }
  }

  async addTimeOff(calendarId: string, t: TimeOff): Promise<void> {
    await currentSql(this.sql)`
      insert into availability.time_off (id, calendar_id, tenant_id, starts_at, ends_at, reason)
      values (${t.id}, ${calendarId}, ${requireTenant()}, ${t.startsAt}, ${t.endsAt}, ${t.reason})`;
  }
}
