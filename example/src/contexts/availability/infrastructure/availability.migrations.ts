import type { Migration } from "@kit/kernel/postgres";

/**
 * The availability schema: weekly windows and time off, per calendar (1); every row carries its
 * practice (2); keyed by practice, as the calendars they belong to (3).
 */
export const availabilityMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "availability/0001_opening_windows_time_off",
    sql: `
create table opening_windows (
  calendar_id text not null,
  weekday integer not null check (weekday between 0 and 6),
  opens_at integer not null,
  closes_at integer not null,
  primary key (calendar_id, weekday, opens_at)
);
create table time_off (
  id text primary key,
  calendar_id text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  reason text not null
);
create index time_off_by_calendar on time_off (calendar_id, starts_at);
`,
  },
  {
    version: 2,
    id: "availability/0002_tenant",
    sql: `
-- Every row belongs to a practice (tenant). Rows written before tenancy was closed by work that
-- named no practice are given the seed's practice, practice-1 (the seeded cal-1's hours are).
alter table opening_windows add column tenant_id text;
update opening_windows set tenant_id = 'practice-1';
alter table opening_windows alter column tenant_id set not null;
alter table time_off add column tenant_id text;
update time_off set tenant_id = 'practice-1';
alter table time_off alter column tenant_id set not null;
`,
  },
  {
    version: 3,
    id: "availability/0003_ids_per_practice",
    sql: `
-- Calendar ids are unique within a practice only (scheduling/0006): two practices' calendars of
-- one id have their own weekly windows and time off.
alter table opening_windows drop constraint opening_windows_pkey;
alter table opening_windows add primary key (tenant_id, calendar_id, weekday, opens_at);
drop index time_off_by_calendar;
create index time_off_by_calendar on time_off (tenant_id, calendar_id, starts_at);
`,
  },
];
