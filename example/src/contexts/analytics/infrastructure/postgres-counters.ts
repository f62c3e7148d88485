import { requireTenant } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import type { Counters } from "../application/ports/counters.ts";

/**
 * Counters in `analytics.daily_bookings` and `analytics.daily_registrations`, per practice
 * (tenant): each increment counts for the work's tenant (a reaction's is its event's).
 */
export class PostgresCounters implements Counters {
  constructor(private readonly sql: Database) {}

  async countBooking(calendarId: string, day: string, change: "booked" | "cancelled") {
    const booked = change === "booked" ? 1 : 0;
    await currentSql(this.sql)`
      insert into analytics.daily_bookings (tenant_id, calendar_id, day, booked, cancelled)
      values (${requireTenant()}, ${calendarId}, ${day}, ${booked}, ${1 - booked})
      on conflict (tenant_id, calendar_id, day) do update set
        booked = daily_bookings.booked + excluded.booked,
        cancelled = daily_bookings.cancelled + excluded.cancelled`;
  }

  async countRegistration(day: string): Promise<void> {
    await currentSql(this.sql)`
      insert into analytics.daily_registrations (tenant_id, day, registered)
      values (${requireTenant()}, ${day}, 1)
      on conflict (tenant_id, day) do update set registered = daily_registrations.registered + 1`;
  }
}
