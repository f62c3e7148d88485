import type { Migration } from "@kit/kernel/postgres";

/**
 * The identity schema: registered people and invitations to a practice (1); every row carries its
 * practice, and a person registers a profile per practice (2).
 */
export const identityMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "identity/0001_people_invitations",
    sql: `
create table people (
  id text primary key,
  tenant_id text,
  name text not null,
  email text not null,
  registered_at timestamptz not null
);
create table invitations (
  id text primary key,
  tenant_id text,
  email text not null,
  role text not null,
  invited_by text not null,
  invited_at timestamptz not null,
  unique (tenant_id, email)
);
`,
  },
  {
    version: 2,
    id: "identity/0002_tenant",
    sql: `
-- Every row belongs to a practice (tenant). Rows written before tenancy was closed by work that
-- named no practice are personal data of an unknown practice: deleted, never handed to one.
delete from people where tenant_id is null;
alter table people alter column tenant_id set not null;
alter table people drop constraint people_pkey;
alter table people add primary key (tenant_id, id);
delete from invitations where tenant_id is null;
alter table invitations alter column tenant_id set not null;
`,
  },
];
