import type { Migration } from "@kit/kernel/postgres";

/**
 * The analytics schema: counters per calendar and day, and registrations per day (1); every row
 * counts for one practice (2); one row per event, summed on read (3).
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
  {
    version: 3,
    id: "analytics/0003_counts_per_event",
    sql: `
-- One row per event, summed on read. The relay delivers a handler's events in batches, one
-- transaction each, two lanes at once: increments of shared counter rows locked them in each
-- batch's order, and two batches counting the same days in other orders deadlocked (40P01). A row
-- of its own per event takes no lock another delivery waits for. The reads keep their names:
-- daily_bookings and daily_registrations are now views summing these rows.
create table booking_counts (
  tenant_id text not null,
  event_id text not null,
  calendar_id text not null,
  day date not null,
  booked integer not null default 0,
  cancelled integer not null default 0,
  primary key (tenant_id, event_id)
);
create index booking_counts_day on booking_counts (tenant_id, calendar_id, day);
insert into booking_counts (tenant_id, event_id, calendar_id, day, booked, cancelled)
  select tenant_id, 'before-0003:' || calendar_id || ':' || day, calendar_id, day, booked, cancelled
  from daily_bookings;
drop table daily_bookings;
create view daily_bookings as
  select tenant_id, calendar_id, day, sum(booked)::integer as booked,
    sum(cancelled)::integer as cancelled
  from booking_counts group by tenant_id, calendar_id, day;
create table registration_counts (
  tenant_id text not null,
  event_id text not null,
  day date not null,
  primary key (tenant_id, event_id)
);
create index registration_counts_day on registration_counts (tenant_id, day);
insert into registration_counts (tenant_id, event_id, day)
  select tenant_id, 'before-0003:' || day || ':' || n, day
  from daily_registrations, generate_series(1, registered) as n;
drop table daily_registrations;
create view daily_registrations as
  select tenant_id, day, count(*)::integer as registered
  from registration_counts group by tenant_id, day;
`,
  },
];
