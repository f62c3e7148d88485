import assert from "node:assert/strict";
import { drizzle } from "drizzle-orm/postgres-js";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { pgTest } from "../test_support/services.ts";
import { createJobTables, jobsTable, jobWorkersTable } from "./mod.ts";

/** Each column as `name type not null?`, and the index names, of a Drizzle table. */
function declared(table: PgTable): { columns: string[]; indexes: string[] } {
  const config = getTableConfig(table);
  return {
    columns: config.columns.map((c) => `${c.name} ${c.getSQLType()}${c.notNull ? " not null" : ""}`)
      .sort(),
    indexes: config.indexes.map((i) => i.config.name!).sort(),
  };
}

pgTest(
  "jobsTable() and jobWorkersTable() declare the tables kit's job migrations make",
  async ({ sql, schema }) => {
    await createJobTables(drizzle(sql as never), schema);
    for (const table of [jobsTable(schema), jobWorkersTable(schema)]) {
      const name = getTableConfig(table).name;
      const columns = await sql<{ c: string }[]>`
      select column_name || ' ' ||
        case data_type when 'timestamp with time zone' then 'timestamp with time zone'
          else data_type end ||
        case is_nullable when 'NO' then ' not null' else '' end as c
      from information_schema.columns where table_schema = ${schema} and table_name = ${name}`;
      const indexes = await sql<{ i: string }[]>`
      select indexname as i from pg_indexes
      where schemaname = ${schema} and tablename = ${name} and indexname not like '%_pkey'`;
      assert.deepEqual(declared(table), {
        columns: columns.map((r) => r.c).sort(),
        indexes: indexes.map((r) => r.i).sort(),
      }, name);
    }
  },
);
