import type { Migration } from "@kit/kernel/postgres";

/**
 * Creates $schema$.$table$. Never edit a migration that has run somewhere: add another (the
 * ledger keeps its id and the SHA-256 of its SQL, and refuses a database where they differ).
 */
export const $constant$: Migration = {
  version: $version$,
  id: "$context$/$name$",
  sql: `
create schema if not exists "$schema$";
-- Keyed by tenant and id: each tenant names its own ids, and one tenant's id neither blocks nor
-- reveals another's.
create table if not exists "$schema$"."$table$" (
  tenant_id text not null,
  id text not null,
  data jsonb not null default '{}'::jsonb,
  version integer not null check (version > 0),
  primary key (tenant_id, id)
);
`,
};
