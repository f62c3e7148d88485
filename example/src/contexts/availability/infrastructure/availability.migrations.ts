import type { Migration } from "@kit/kernel/postgres";

/** The availability schema: weekly windows and time off, per calendar. */
export const availabilityMigrations: readonly Migration[] = [
  {
    version: 1,
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
];
