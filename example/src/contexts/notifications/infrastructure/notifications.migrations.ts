import type { Migration } from "@kit/kernel/postgres";

/** The notifications schema: what each person was told, and how they like to be told. */
export const notificationsMigrations: readonly Migration[] = [
  {
    version: 1,
    sql: `
create table notifications (
  id text primary key,
  recipient_id text not null,
  kind text not null,
  title text not null,
  body text not null,
  related_id text,
  created_at timestamptz not null,
  read_at timestamptz
);
create index notifications_by_recipient on notifications (recipient_id, created_at desc, id);
create table preferences (
  person_id text primary key,
  email boolean not null,
  sms boolean not null,
  reminder_hours_before integer not null
);
`,
  },
  {
    version: 2,
    sql: `
create table reminders (
  appointment_id text primary key,
  job_id text not null
);
`,
  },
];
