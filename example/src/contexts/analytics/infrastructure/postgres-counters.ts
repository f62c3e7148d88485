import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import type { Counters } from "../application/ports/counters.ts";

/** Counters in `analytics.daily_bookings` and `analytics.daily_registrations`. */
export class PostgresCounters implements Counters {
  constructor(private readonly sql: Database) {}

  async countBooking(calendarId: string, day: string, change: "booked" | "cancelled") {
    const booked = change === "booked" ? 1 : 0;
    await currentSql(this.sql)`
      insert into analytics.daily_bookings (calendar_id, day, booked, cancelled)
      values (${calendarId}, ${day}, ${booked}, ${1 - booked})
      on conflict (calendar_id, day) do update set
        booked = daily_bookings.booked + excluded.booked,
        cancelled = daily_bookings.cancelled + excluded.cancelled`;
  }

  async countRegistration(day: string): Promise<void> {
    await currentSql(this.sql)`
      insert into analytics.daily_registrations (day, registered) values (${day}, 1)
      on conflict (day) do update set registered = daily_registrations.registered + 1`;
  }
}
