import type { Migration } from "@kit/kernel/postgres";

/**
 * The scheduling schema, in order: calendars, appointment types, appointments (1); every row
 * carries its practice, appointments a version (2); appointments listed by start (3); a calendar's
 * time zone (4); an appointment's notes (5); calendars keyed by practice and id, so that each practice
 * names its calendars freely (6).
 */
export const schedulingMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "scheduling/0001_calendars_appointments",
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
  {
    version: 2,
    id: "scheduling/0002_tenant_version",
    sql: `
-- Every row belongs to a practice (tenant). Rows written before tenancy was closed by work that
-- named no practice are given the seed's practice, practice-1 (the only one a dev database
-- knows; the seeded calendar cal-1 is one of them); appointments and types take their calendar's.
update calendars set tenant_id = 'practice-1' where tenant_id is null;
alter table calendars alter column tenant_id set not null;
alter table appointment_types add column tenant_id text;
update appointment_types t set tenant_id = c.tenant_id from calendars c where c.id = t.calendar_id;
alter table appointment_types alter column tenant_id set not null;
update appointments a set tenant_id = c.tenant_id
  from calendars c where c.id = a.calendar_id and a.tenant_id is null;
alter table appointments alter column tenant_id set not null;
-- Optimistic concurrency: a save expects the version it loaded.
alter table appointments add column version integer not null default 1;
alter table appointments alter column version drop default;
`,
  },
  {
    version: 3,
    id: "scheduling/0003_appointments_by_start",
    sql: `
-- GET /appointments pages a practice's appointments by (starts_at, id), after a cursor.
create index appointments_by_start on appointments (tenant_id, starts_at, id);
`,
  },
  {
    version: 4,
    id: "scheduling/0004_time_zone",
    sql: `
-- A calendar's IANA time zone: its grid and opening hours are wall-clock times there. Calendars
-- opened before it existed keep reading their hours in UTC, as they did.
alter table calendars add column time_zone text not null default 'UTC';
`,
  },
  {
    version: 5,
    id: "scheduling/0005_appointment_notes",
    sql: `
-- The staff's internal notes on an appointment (WriteAppointmentNotes); none until written.
alter table appointments add column notes text;
`,
  },
  {
    version: 6,
    id: "scheduling/0006_ids_per_practice",
    sql: `
-- A calendar's id is chosen by the client: unique within its practice, not across practices (one
-- practice naming an id must neither take it from another nor learn that another uses it). Every
-- row that names a calendar names it with its practice.
alter table appointment_types drop constraint appointment_types_calendar_id_fkey;
alter table appointments drop constraint appointments_calendar_id_fkey;
alter table calendars drop constraint calendars_pkey;
alter table calendars add primary key (tenant_id, id);
alter table appointment_types drop constraint appointment_types_pkey;
alter table appointment_types add primary key (tenant_id, calendar_id, id);
alter table appointment_types add foreign key (tenant_id, calendar_id)
  references calendars (tenant_id, id);
alter table appointments add foreign key (tenant_id, calendar_id)
  references calendars (tenant_id, id);
drop index appointments_live_slot;
create unique index appointments_live_slot on appointments (tenant_id, calendar_id, starts_at)
  where status <> 'cancelled';
drop index appointments_by_calendar;
create index appointments_by_calendar on appointments (tenant_id, calendar_id, starts_at);
drop index appointments_by_patient;
create index appointments_by_patient on appointments (tenant_id, calendar_id, patient_id, ends_at)
  where status <> 'cancelled';
`,
  },
];
