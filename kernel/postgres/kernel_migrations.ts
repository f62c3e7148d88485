import type postgres from "postgres";
import { type Migration, type MigrationMismatchPolicy, runMigrations } from "./run_migrations.ts";

/**
 * The numbered migrations of the kernel's tables (outbox, deliveries, processed events,
 * idempotency keys). Version 3 parks dead deliveries (`dead_at`), numbers deliveries in the
 * order they are appended (`seq`, the tie-break between events of one instant; rows from before
 * it have none, and the table is not rewritten) and indexes pending ones by handler, as relays
 * claim them.
 */
export const kernelMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "0001_outbox_deliveries_processed_events",
    sql: `
create table if not exists kit_outbox (
  id text primary key,
  type text not null,
  version integer not null,
  occurred_at timestamptz not null,
  payload jsonb not null,
  correlation_id text,
  causation_id text,
  tenant_id text,
  actor_id text
);
create table if not exists kit_outbox_deliveries (
  event_id text not null references kit_outbox (id) on delete cascade,
  handler text not null,
  attempts integer not null default 0,
  due_at timestamptz not null,
  locked_until timestamptz,
  delivered_at timestamptz,
  last_error text,
  primary key (event_id, handler)
);
create index if not exists kit_outbox_deliveries_due
  on kit_outbox_deliveries (due_at) where delivered_at is null;
create table if not exists kit_processed_events (
  handler text not null,
  event_id text not null,
  processed_at timestamptz not null default now(),
  primary key (handler, event_id)
);
`,
  },
  {
    version: 2,
    id: "0002_idempotency_keys",
    sql: `
create table if not exists kit_idempotency_keys (
  scope text not null,
  key text not null,
  fingerprint text not null,
  status integer not null,
  body jsonb,
  headers jsonb,
  created_at timestamptz not null,
  primary key (scope, key)
);
create index if not exists kit_idempotency_keys_created on kit_idempotency_keys (created_at);
`,
  },
  {
    version: 3,
    id: "0003_dead_deliveries_seq",
    sql: `
alter table kit_outbox_deliveries add column if not exists dead_at timestamptz;
create sequence if not exists kit_outbox_deliveries_seq;
alter table kit_outbox_deliveries add column if not exists seq bigint;
alter table kit_outbox_deliveries alter column seq set default nextval('kit_outbox_deliveries_seq');
drop index if exists kit_outbox_deliveries_due;
create index if not exists kit_outbox_deliveries_pending
  on kit_outbox_deliveries (handler, due_at, seq)
  where delivered_at is null and dead_at is null;
create index if not exists kit_outbox_deliveries_dead
  on kit_outbox_deliveries (event_id, handler) where dead_at is not null;
`,
  },
];

/**
 * Creates or updates the kernel's tables in a schema (default: the connection's search path).
 * Idempotent; safe to run from several processes at once (an advisory lock serialises them). A
 * ledger that differs from this list is refused (see {@linkcode runMigrations}).
 */
export function migrateKernel(
  sql: postgres.Sql,
  options: { schema?: string; onMismatch?: MigrationMismatchPolicy } = {},
): Promise<void> {
  return runMigrations(sql, {
    table: "kit_kernel_migrations",
    migrations: kernelMigrations,
    ...options,
  });
}
