import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import type { OpeningHoursRepository } from "../application/ports/opening-hours-repository.ts";
import { OpeningHours } from "../domain/opening-hours.ts";

/** Opening hours in `availability.opening_windows` and `availability.time_off`. */
export class PostgresOpeningHours implements OpeningHoursRepository {
  constructor(private readonly sql: Database) {}

  async get(calendarId: string): Promise<OpeningHours> {
    const db = currentSql(this.sql);
    const windows = await db`
      select weekday, opens_at, closes_at from availability.opening_windows
      where calendar_id = ${calendarId} order by weekday, opens_at`;
    const timeOff = await db`
      select id, starts_at, ends_at, reason from availability.time_off
      where calendar_id = ${calendarId} order by starts_at, id`;
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

  async save(hours: OpeningHours): Promise<void> {
    const db = currentSql(this.sql);
    await db`delete from availability.opening_windows where calendar_id = ${hours.calendarId}`;
    for (const w of hours.weekly) {
      await db`
        insert into availability.opening_windows (calendar_id, weekday, opens_at, closes_at)
        values (${hours.calendarId}, ${w.weekday}, ${w.opensAt}, ${w.closesAt})`;
    }
    for (const t of hours.timesOff) {
      await db`
        insert into availability.time_off (id, calendar_id, starts_at, ends_at, reason)
        values (${t.id}, ${hours.calendarId}, ${t.startsAt}, ${t.endsAt}, ${t.reason})
        on conflict (id) do nothing`;
    }
  }
}
