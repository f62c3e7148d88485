import type { Migration } from "@kit/kernel/postgres";

/**
 * Re-keys $schema$.$table$ by `(tenant_id, id)`: created before ids per tenant with `id` alone as
 * its key, it refused one tenant's id when another tenant kept it (and so revealed that it
 * exists). Every row stays. Never edit a migration that has run somewhere: add another. On a large
 * table, build the index first by hand, outside a transaction (docs/operations/ids-per-tenant.md):
 * this migration then only swaps the key.
 */
export const $constant$: Migration = {
  version: $version$,
  id: "$context$/$name$",
  sql: `
create unique index if not exists "$table$_tenant_id_id" on "$schema$"."$table$" (tenant_id, id);
alter table "$schema$"."$table$" drop constraint "$table$_pkey";
alter table "$schema$"."$table$" add constraint "$table$_pkey" primary key using index "$table$_tenant_id_id";
drop index if exists "$schema$"."$table$_tenant_id";
`,
};
