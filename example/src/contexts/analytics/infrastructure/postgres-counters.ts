import { requireTenant } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import type { Counters } from "../application/ports/counters.ts";

/**
 * Counters in `analytics.booking_counts` and `analytics.registration_counts`, per practice
 * (tenant): each count is a row of its own, keyed by its event (a redelivery writes nothing), and
 * the views `daily_bookings` and `daily_registrations` sum them. No two deliveries write the same
 * row, so the relay's batches, running at once, never wait on each other's locks (a shared
 * counter row deadlocked them).
 */
export class PostgresCounters implements Counters {
  constructor(private readonly sql: Database) {}

  async countBooking(
    eventId: string,
    calendarId: string,
    day: string,
    change: "booked" | "cancelled",
  ): Promise<void> {
    const booked = change === "booked" ? 1 : 0;
    await currentSql(this.sql)`
      insert into analytics.booking_counts
        (tenant_id, event_id, calendar_id, day, booked, cancelled)
      values (${requireTenant()}, ${eventId}, ${calendarId}, ${day}, ${booked}, ${1 - booked})
      on conflict (tenant_id, event_id) do nothing`;
  }

  async countRegistration(eventId: string, day: string): Promise<void> {
    await currentSql(this.sql)`
      insert into analytics.registration_counts (tenant_id, event_id, day)
      values (${requireTenant()}, ${eventId}, ${day})
      on conflict (tenant_id, event_id) do nothing`;
  }
}
