/**
 * The analytics counters under the relay's concurrent batches: two deliveries' transactions
 * counting the same calendar days in opposite orders (as two lanes of one handler do, each batch
 * in one transaction) both commit, with no deadlock (40P01), and every booking is counted once.
 * Shared counter rows, incremented in place, deadlocked here: the soak of issue 28 logged 796
 * deadlocks from this handler.
 */
import assert from "node:assert/strict";
import { type IntegrationEvent, runInScope, systemActor } from "@kit/kernel";
import { PostgresProcessedEvents, PostgresTransactions } from "@kit/kernel/postgres";
import postgres from "postgres";
import { SchedulingAppointmentBookedHandler } from "../../src/contexts/analytics/application/reactions/scheduling-appointment-booked.handler.ts";
import { PostgresCounters } from "../../src/contexts/analytics/infrastructure/postgres-counters.ts";
import type { Database } from "../../src/platform/database/database.ts";
import { migrate } from "../../src/platform/database/migrate.ts";

const base = Deno.env.get("DATABASE_URL");
if (!base && Deno.env.get("CI") !== "true") {
  console.log("skipped: the analytics deadlock spec needs DATABASE_URL");
}

function booked(n: number, day: string): IntegrationEvent<Record<string, string>> {
  return {
    id: `event-${n}`,
    type: "scheduling.appointment.booked",
    version: 1,
    occurredAt: "2026-03-01T09:00:00.000Z",
    tenantId: "practice-1",
    payload: {
      appointmentId: `a-${n}`,
      calendarId: "cal-1",
      appointmentTypeId: "checkup",
      patientId: `p-${n}`,
      startsAt: `${day}T10:00:00.000Z`,
      endsAt: `${day}T10:30:00.000Z`,
    },
  };
}

Deno.test({
  name:
    "analytics counts two deliveries' bookings of the same days in opposite orders, at once, with no deadlock",
  ignore: !base && Deno.env.get("CI") !== "true",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const name = `example_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = postgres(base!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(base!);
    url.pathname = `/${name}`;
    const sql = postgres(url.href, { max: 4, onnotice: () => {} }) as unknown as Database;
    try {
      await migrate(sql);
      const transactions = new PostgresTransactions(sql);
      const handler = new SchedulingAppointmentBookedHandler(
        new PostgresProcessedEvents(),
        new PostgresCounters(sql),
      );
      const deliver = (work: () => Promise<void>) =>
        transactions.run((unitOfWork) =>
          runInScope({
            execution: {
              origin: "event",
              actor: systemActor,
              correlationId: "c",
              tenantId: "practice-1",
            },
            unitOfWork,
          }, work)
        );
      const handle = (n: number, day: string) => handler.handle(booked(n, day) as never);
      // The days were counted before.
      await deliver(() => handle(0, "2026-03-02"));
      await deliver(() => handle(1, "2026-03-03"));

      // Two batches at once: the first counts day 2 then day 3, the second day 3 then day 2; each
      // has counted its first day when the other counts its second.
      const firstCounted = Promise.withResolvers<void>();
      const secondCounted = Promise.withResolvers<void>();
      const outcomes = await Promise.allSettled([
        deliver(async () => {
          await handle(2, "2026-03-02");
          firstCounted.resolve();
          await secondCounted.promise;
          await handle(3, "2026-03-03");
        }),
        deliver(async () => {
          await firstCounted.promise;
          await handle(4, "2026-03-03");
          secondCounted.resolve();
          await handle(5, "2026-03-02");
        }),
      ]);
      const failures = outcomes.flatMap((o) => o.status === "rejected" ? [o.reason] : []);
      assert.deepEqual(
        failures.map((error) => `${(error as Error).message} ${JSON.stringify(error)}`),
        [],
        "no delivery failed (a deadlock is 40P01, or CONCURRENT_UPDATE once translated)",
      );
      const counts = await sql`select day::text, booked from analytics.daily_bookings
        where tenant_id = 'practice-1' and calendar_id = 'cal-1' order by day`;
      assert.deepEqual(counts.map((row) => [row.day, row.booked]), [
        ["2026-03-02", 3],
        ["2026-03-03", 3],
      ]);
      // A redelivery counts nothing twice.
      await deliver(() => handle(5, "2026-03-02"));
      const [again] = await sql`select booked from analytics.daily_bookings
        where day = '2026-03-02'`;
      assert.equal(again!.booked, 3);
    } finally {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    }
  },
});
