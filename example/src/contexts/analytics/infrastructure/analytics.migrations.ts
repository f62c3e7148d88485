import type { Migration } from "@kit/kernel/postgres";

/**
 * The analytics schema: counters per calendar and day, and registrations per day (1); every row
 * counts for one practice (2).
 */
export const analyticsMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "analytics/0001_daily_counts",
    sql: `
create table daily_bookings (
  calendar_id text not null,
  day date not null,
  booked integer not null default 0,
  cancelled integer not null default 0,
  primary key (calendar_id, day)
);
create table daily_registrations (
  day date primary key,
  registered integer not null default 0
);
`,
  },
  {
    version: 2,
    id: "analytics/0002_tenant",
    sql: `
-- Every row counts for a practice (tenant). The counts kept before are given the seed's practice,
-- practice-1: they counted its calendars, the only ones a dev database knows.
alter table daily_bookings add column tenant_id text;
update daily_bookings set tenant_id = 'practice-1';
alter table daily_bookings alter column tenant_id set not null;
alter table daily_bookings drop constraint daily_bookings_pkey;
alter table daily_bookings add primary key (tenant_id, calendar_id, day);
alter table daily_registrations add column tenant_id text;
update daily_registrations set tenant_id = 'practice-1';
alter table daily_registrations alter column tenant_id set not null;
alter table daily_registrations drop constraint daily_registrations_pkey;
alter table daily_registrations add primary key (tenant_id, day);
`,
  },
];
