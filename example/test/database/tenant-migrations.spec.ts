/**
 * The migrations that gave every row its practice, run on a database the first migrations left
 * with rows of no practice (as work that named none wrote them): calendar data goes to the seed's
 * practice (appointments and types follow their calendar), identity's rows of no practice are
 * deleted, and every tenant column ends NOT NULL.
 */
import assert from "node:assert/strict";
import { runMigrations } from "@kit/kernel/postgres";
import postgres from "postgres";
import { analyticsMigrations } from "../../src/contexts/analytics/infrastructure/analytics.migrations.ts";
import { availabilityMigrations } from "../../src/contexts/availability/infrastructure/availability.migrations.ts";
import { identityMigrations } from "../../src/contexts/identity/infrastructure/identity.migrations.ts";
import { notificationsMigrations } from "../../src/contexts/notifications/infrastructure/notifications.migrations.ts";
import { schedulingMigrations } from "../../src/contexts/scheduling/infrastructure/scheduling.migrations.ts";
import { migrate } from "../../src/platform/database/migrate.ts";

const base = Deno.env.get("DATABASE_URL");
if (!base && Deno.env.get("CI") !== "true") {
  console.log("skipped: the migration spec needs DATABASE_URL");
}

Deno.test({
  name: "the tenant migrations backfill rows of no practice and leave every tenant_id not null",
  ignore: !base && Deno.env.get("CI") !== "true",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const name = `example_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = postgres(base!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(base!);
    url.pathname = `/${name}`;
    const sql = postgres(url.href, { max: 2, onnotice: () => {} });
    try {
      // The schemas as the first wave left them.
      const firstWave = {
        analytics: analyticsMigrations.slice(0, 1),
        availability: availabilityMigrations.slice(0, 1),
        identity: identityMigrations.slice(0, 1),
        notifications: notificationsMigrations.slice(0, 2),
        scheduling: schedulingMigrations.slice(0, 1),
      };
      for (const [schema, migrations] of Object.entries(firstWave)) {
        await runMigrations(sql, { table: "kit_migrations", schema, migrations });
      }
      await sql.unsafe(`
        insert into scheduling.calendars values
          ('cal-1', null, 'dr-who', 15, 120, 60, 3, now()),
          ('cal-2', 'practice-2', 'dr-no', 15, 120, 60, 3, now());
        insert into scheduling.appointment_types values
          ('cal-1', 'checkup', 'Check-up', 30), ('cal-2', 'checkup', 'Check-up', 30);
        insert into scheduling.appointments values
          ('a1', 'cal-1', null, 'checkup', 'p1', '2026-03-02T10:00Z', '2026-03-02T10:30Z',
            'booked', 'p1', null),
          ('a2', 'cal-2', null, 'checkup', 'p2', '2026-03-02T10:00Z', '2026-03-02T10:30Z',
            'booked', 'p2', null);
        insert into availability.opening_windows values ('cal-1', 1, 540, 1020);
        insert into availability.time_off values ('t1', 'cal-1', now(), now(), 'leave');
        insert into identity.people values
          ('p1', null, 'Ada', 'ada@example.org', now()),
          ('p2', 'practice-2', 'Bob', 'bob@example.org', now());
        insert into identity.invitations values
          ('i1', null, 'eve@example.org', 'patient', 'dr-who', now()),
          ('i2', 'practice-2', 'eve@example.org', 'patient', 'dr-no', now());
        insert into notifications.notifications values
          ('n1', 'p1', 'message', 'Hi', 'Hello', null, now(), null);
        insert into notifications.preferences values ('p1', true, false, 24);
        insert into notifications.reminders values ('a1', 'job-1');
        insert into analytics.daily_bookings values ('cal-1', '2026-03-02', 1, 0);
        insert into analytics.daily_registrations values ('2026-03-02', 1);
      `);

      await migrate(sql);

      const pairs = async (query: string) =>
        (await sql.unsafe(query)).map((r) => Object.values(r).join(" "));
      assert.deepEqual(
        await pairs("select id, tenant_id from scheduling.calendars order by id"),
        ["cal-1 practice-1", "cal-2 practice-2"],
      );
      assert.deepEqual(
        await pairs("select calendar_id, tenant_id from scheduling.appointment_types order by 1"),
        ["cal-1 practice-1", "cal-2 practice-2"],
      );
      assert.deepEqual(
        await pairs("select id, tenant_id, version from scheduling.appointments order by id"),
        ["a1 practice-1 1", "a2 practice-2 1"],
        "an appointment takes its calendar's practice, at version 1",
      );
      assert.deepEqual(
        await pairs("select id, tenant_id from identity.people order by id"),
        ["p2 practice-2"],
        "a profile of no practice is deleted",
      );
      assert.deepEqual(
        await pairs("select id, tenant_id from identity.invitations order by id"),
        ["i2 practice-2"],
      );
      for (
        const table of [
          "availability.opening_windows",
          "availability.time_off",
          "notifications.notifications",
          "notifications.preferences",
          "notifications.reminders",
          "analytics.daily_bookings",
          "analytics.daily_registrations",
        ]
      ) {
        assert.deepEqual(
          await pairs(`select distinct tenant_id from ${table}`),
          ["practice-1"],
          table,
        );
      }
      const nullable = await sql`
        select c.table_schema || '.' || c.table_name as name from information_schema.columns c
        join information_schema.tables t using (table_schema, table_name)
        where c.column_name = 'tenant_id' and c.is_nullable = 'YES' and t.table_type = 'BASE TABLE'
          and c.table_schema in ('analytics', 'availability', 'identity', 'notifications',
            'scheduling')`;
      assert.deepEqual([...nullable], []);
      await assert.rejects(
        () =>
          sql`insert into identity.invitations values ('i3', null, 'x@y.z', 'patient', 'd', now())`,
        /null value in column "tenant_id"/,
      );
    } finally {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    }
  },
});
