/**
 * The upgrade of docs/operations/ids-per-tenant.md ("Projects generated before"), run as the page
 * writes it on PostgreSQL: its SQL blocks, against a table as `kit generate repository` wrote it
 * before ids per tenant (`id text primary key`, an index on `tenant_id`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "../commands/served_project.ts";

const databaseUrl = Deno.env.get("DATABASE_URL");
const page = fileURLToPath(new URL("../../docs/operations/ids-per-tenant.md", import.meta.url));

/** The table of a repository as kit generated it before ids per tenant (its migration's SQL). */
const before = `
create schema if not exists "fleet";
create table if not exists "fleet"."bikes" (
  id text primary key,
  tenant_id text not null,
  data jsonb not null default '{}'::jsonb,
  version integer not null check (version > 0)
);
create index if not exists "bikes_tenant_id" on "fleet"."bikes" (tenant_id);
`;

/** The `sql` blocks of the page's section "Projects generated before", for the table fleet.bikes. */
async function upgradeBlocks(): Promise<string[]> {
  const text = await readFile(page, "utf8");
  const section = text.slice(text.indexOf("## Projects generated before"));
  const blocks = [
    ...section.slice(0, section.indexOf("\n## ", 1)).matchAll(/```sql\n([\s\S]*?)```/g),
  ].map((match) =>
    match[1]!.split("\n").map((line) => line.trim()).join("\n")
      .replaceAll("<schema>", "fleet").replaceAll("<aggregates>", "bikes")
  );
  assert.equal(blocks.length, 2, "the migration's SQL, and the index built by hand first");
  return blocks;
}

Deno.test({
  name:
    "ids per tenant, projects generated before: the page's migration re-keys a table by (tenant_id, id), rows kept",
  ignore: databaseUrl === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const [migration, byHand] = await upgradeBlocks();
    for (const indexFirst of [false, true]) {
      const database = await createTestDatabase(databaseUrl!);
      const sql = database.sql;
      try {
        await sql.unsafe(before);
        await sql`insert into fleet.bikes (id, tenant_id, data, version)
          values ('b1', 't1', '{}', 1), ('b2', 't1', '{}', 3), ('b3', 't2', '{}', 1)`;
        // Before: one tenant's id blocks another's.
        const taken = await sql`insert into fleet.bikes (id, tenant_id, data, version)
          values ('b1', 't2', '{}', 1) on conflict (id) do nothing`;
        assert.equal(taken.count, 0);

        // The large table's way: the index built first, outside a transaction.
        if (indexFirst) await sql.unsafe(byHand!);
        // The migration, in one transaction as the project's migrations run.
        await sql.begin((tx) => tx.unsafe(migration!));
        // Run again (KIT_MIGRATIONS_REAPPLY=1 on a development database): the same end state.
        if (indexFirst) await sql.begin((tx) => tx.unsafe(migration!));

        const key = await sql`
          select array_agg(a.attname::text order by k.ordinality) as columns
          from pg_index i
          cross join lateral unnest(i.indkey) with ordinality as k(attnum, ordinality)
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
          where i.indrelid = 'fleet.bikes'::regclass and i.indisprimary`;
        assert.deepEqual(key[0]!.columns, ["tenant_id", "id"]);
        const indexes = await sql`
          select indexname from pg_indexes where schemaname = 'fleet' and tablename = 'bikes'`;
        assert.deepEqual(indexes.map((row) => row.indexname), ["bikes_pkey"]);
        const rows = await sql`select tenant_id, id, version from fleet.bikes order by id`;
        assert.deepEqual(rows.map((row) => [row.tenant_id, row.id, row.version]), [
          ["t1", "b1", 1],
          ["t1", "b2", 3],
          ["t2", "b3", 1],
        ]);

        // After, with the adapter's new insert: another tenant's id is no obstacle; a duplicate
        // in one tenant inserts nothing (the adapter throws BIKE_EXISTS then).
        const insert = (tenant: string, id: string) =>
          sql`insert into fleet.bikes (tenant_id, id, data, version)
            values (${tenant}, ${id}, '{}', 1) on conflict (tenant_id, id) do nothing`;
        assert.equal((await insert("t2", "b1")).count, 1);
        assert.equal((await insert("t1", "b1")).count, 0);
        // The adapter as generated before is refused by PostgreSQL: it ships in the same deploy.
        await assert.rejects(
          sql`insert into fleet.bikes (id, tenant_id, data, version)
            values ('b9', 't1', '{}', 1) on conflict (id) do nothing`,
          (error: { code?: string }) => error.code === "42P10",
        );
      } finally {
        await database.drop();
      }
    }
  },
});
