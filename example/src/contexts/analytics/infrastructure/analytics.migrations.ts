import type { Migration } from "@kit/kernel/postgres";

/** The analytics schema: counters per calendar and day, and registrations per day. */
export const analyticsMigrations: readonly Migration[] = [
  {
    version: 1,
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
];
