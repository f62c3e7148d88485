import type postgres from "postgres";
import {
  type Migration,
  type MigrationMismatchPolicy,
  runMigrations,
} from "../postgres/run_migrations.ts";

/**
 * The numbered migrations of the process managers' tables: the instances (one row per process,
 * tenant and key, with its version, state and pending deadlines) and the messages each handled
 * (event ids and deadline tokens: the duplicates' guard and the instance's history), with the
 * events parked until their instance starts; then who ended an instance (an operator).
 */
export const processMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "0001_process_instances_messages",
    sql: `
create table if not exists kit_process_instances (
  process text not null,
  tenant_id text not null default '',
  key text not null,
  status text not null check (status in ('active', 'completed')),
  state jsonb not null,
  version integer not null check (version > 0),
  deadlines jsonb not null default '{}',
  started_at timestamptz not null,
  updated_at timestamptz not null,
  completed_at timestamptz,
  primary key (process, tenant_id, key)
);
create index if not exists kit_process_instances_status
  on kit_process_instances (process, status, updated_at);
create index if not exists kit_process_instances_completed
  on kit_process_instances (completed_at) where completed_at is not null;
create table if not exists kit_process_messages (
  process text not null,
  tenant_id text not null default '',
  key text not null,
  message_id text not null,
  kind text not null check (kind in ('event', 'deadline')),
  name text not null,
  handled_at timestamptz not null,
  parked jsonb,
  seq bigserial,
  primary key (process, tenant_id, key, message_id)
);
`,
  },
  {
    version: 2,
    id: "0002_process_operator_end",
    sql: `
alter table kit_process_instances add column if not exists ended_by text;
alter table kit_process_messages drop constraint if exists kit_process_messages_kind_check;
alter table kit_process_messages add constraint kit_process_messages_kind_check
  check (kind in ('event', 'deadline', 'operator'));
`,
  },
];

/**
 * Creates or updates the process managers' tables, in the context's schema when given (default:
 * the connection's search path), with their ledger `kit_process_migrations` beside them.
 * Idempotent; concurrent runs are serialised (see `runMigrations`).
 *
 * @example
 * ```ts ignore
 * await migrateProcesses(sql, { schema: "appointments" });
 * const store = new PostgresProcessStore(sql, { schema: "appointments" });
 * ```
 */
export function migrateProcesses(
  sql: postgres.Sql,
  options: { schema?: string; onMismatch?: MigrationMismatchPolicy } = {},
): Promise<void> {
  return runMigrations(sql, {
    table: "kit_process_migrations",
    migrations: processMigrations,
    ...options,
  });
}
