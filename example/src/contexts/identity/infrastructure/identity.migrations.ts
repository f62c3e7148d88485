import type { Migration } from "@kit/kernel/postgres";

/** The identity schema: registered people and invitations to a practice. */
export const identityMigrations: readonly Migration[] = [
  {
    version: 1,
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
];
