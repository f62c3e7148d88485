import type postgres from "postgres";

/** One numbered migration: SQL run once, in order, in one transaction with the others due. */
export interface Migration {
  /** Its number, from 1, in order. */
  readonly version: number;
  /** The SQL it runs. */
  readonly sql: string;
}

/**
 * Runs the migrations not yet recorded in `table`, in order, in one transaction, in a schema
 * (default: the connection's search path). Idempotent; concurrent runs are serialised by an
 * advisory lock on the table's name.
 *
 * @example
 * ```ts ignore
 * await runMigrations(sql, { table: "kit_jobs_migrations", migrations: jobMigrations, schema: "scheduling" });
 * ```
 */
export async function runMigrations(
  sql: postgres.Sql,
  options: { table: string; migrations: readonly Migration[]; schema?: string },
): Promise<void> {
  const { table, schema } = options;
  for (const name of [table, ...(schema === undefined ? [] : [schema])]) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
      throw new TypeError(
        `Invalid schema or table name ${JSON.stringify(name)}: use lower-case snake_case`,
      );
    }
  }
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${table}))`;
    if (schema !== undefined) {
      await tx.unsafe(`create schema if not exists "${schema}"`);
      await tx.unsafe(`set local search_path to "${schema}"`);
    }
    await tx.unsafe(
      `create table if not exists ${table} (version integer primary key, applied_at timestamptz not null default now())`,
    );
    const done = new Set(
      (await tx.unsafe(`select version from ${table}`)).map((r) => r.version as number),
    );
    for (const migration of [...options.migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx.unsafe(`insert into ${table} (version) values (${Number(migration.version)})`);
    }
  });
}
