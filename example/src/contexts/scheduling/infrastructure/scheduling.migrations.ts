import type { Migration } from "@kit/kernel/postgres";

/** The scheduling schema, in order: calendars, appointment types, appointments. */
export const schedulingMigrations: readonly Migration[] = [
  {
    version: 1,
    sql: `
create table calendars (
  id text primary key,
  tenant_id text,
  owner_id text not null,
  slot_minutes integer not null,
  minimum_notice_minutes integer not null,
  horizon_days integer not null,
  patient_limit integer not null,
  opened_at timestamptz not null
);
create table appointment_types (
  calendar_id text not null references calendars (id),
  id text not null,
  name text not null,
  duration_minutes integer not null check (duration_minutes > 0),
  primary key (calendar_id, id)
);
create table appointments (
  id text primary key,
  calendar_id text not null references calendars (id),
  tenant_id text,
  appointment_type_id text not null,
  patient_id text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  status text not null check (status in ('booked', 'confirmed', 'cancelled')),
  booked_by text not null,
  cancellation_reason text
);
-- One live appointment per start: the last line of defence behind the per-calendar lock.
create unique index appointments_live_slot on appointments (calendar_id, starts_at)
  where status <> 'cancelled';
create index appointments_by_calendar on appointments (calendar_id, starts_at);
create index appointments_by_patient on appointments (calendar_id, patient_id, ends_at)
  where status <> 'cancelled';
`,
  },
];
