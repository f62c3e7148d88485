import type { Migration } from "@kit/kernel/postgres";

/**
 * The notifications schema: what each person was told, and how they like to be told (1); the
 * reminder planned for each appointment (2); every row carries its practice (3); reminders keyed by practice and appointment, and the
 * reminders sent, one row each, so that a job run again sends none twice (4).
 */
export const notificationsMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "notifications/0001_notifications_preferences",
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
    id: "notifications/0002_reminders",
    sql: `
create table reminders (
  appointment_id text primary key,
  job_id text not null
);
`,
  },
  {
    version: 3,
    id: "notifications/0003_tenant",
    sql: `
-- Every row belongs to a practice (tenant). The rows kept before are given the seed's practice,
-- practice-1: they were written by reactions to its calendars, the only ones a dev database knows.
alter table notifications add column tenant_id text;
update notifications set tenant_id = 'practice-1';
alter table notifications alter column tenant_id set not null;
drop index notifications_by_recipient;
create index notifications_by_recipient on notifications (tenant_id, recipient_id, created_at desc, id);
alter table preferences add column tenant_id text;
update preferences set tenant_id = 'practice-1';
alter table preferences alter column tenant_id set not null;
alter table preferences drop constraint preferences_pkey;
alter table preferences add primary key (tenant_id, person_id);
alter table reminders add column tenant_id text;
update reminders set tenant_id = 'practice-1';
alter table reminders alter column tenant_id set not null;
`,
  },
  {
    version: 4,
    id: "notifications/0004_reminders_sent",
    sql: `
-- Ids are unique within a practice only.
alter table reminders drop constraint reminders_pkey;
alter table reminders add primary key (tenant_id, appointment_id);
-- One row per reminder sent, written in the transaction that records the send: the job's
-- idempotency record (a job runs at least once; a second run finds the row and sends nothing).
create table reminders_sent (
  tenant_id text not null,
  appointment_id text not null,
  starts_at timestamptz not null,
  sent_at timestamptz not null,
  primary key (tenant_id, appointment_id, starts_at)
);
`,
  },
  {
    version: 5,
    id: "notifications/0005_confirmed_starts",
    sql: `
-- One row per start of an appointment its patient confirmed (AppointmentConfirmed): within the
-- day before that start its reminder is sent; unconfirmed, the request to confirm replaces it.
create table confirmed_starts (
  tenant_id text not null,
  appointment_id text not null,
  starts_at timestamptz not null,
  primary key (tenant_id, appointment_id, starts_at)
);
`,
  },
];
