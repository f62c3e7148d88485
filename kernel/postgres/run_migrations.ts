import type postgres from "postgres";
import { consoleLogger } from "../logging/logger.ts";
import { migrationChecksum } from "./migration_checksum.ts";
import { type LedgerMismatch, MigrationMismatchError } from "./migration_mismatch_error.ts";

export * from "./migration_mismatch_error.ts";

/** One numbered migration: SQL run once, in order, in one transaction with the others due. */
export interface Migration {
  /** Its number, from 1, in order. */
  readonly version: number;
  /**
   * Its stable name, recorded in the ledger with its number and its checksum (default: its
   * number, as text). Never change it once it ran somewhere: the database would be refused.
   */
  readonly id?: string;
  /** The SQL it runs. */
  readonly sql: string;
}

/**
 * What {@linkcode runMigrations} does with a database whose ledger differs from the list:
 * `refuse` (the default) throws {@linkcode MigrationMismatchError} and applies nothing;
 * `reapply`, for development databases only, forgets the ledger from the first number that
 * differs and runs the list from there (its SQL must tolerate what already exists, as
 * `create ... if not exists` does; when it does not, the run fails and nothing changes).
 */
export type MigrationMismatchPolicy = "refuse" | "reapply";

/** What {@linkcode runMigrations} runs, where, and what it does with a ledger that differs. */
export interface RunMigrationsOptions {
  /** The ledger's table: one row per migration applied (number, id, checksum, when). */
  readonly table: string;
  /** The migrations, by number. */
  readonly migrations: readonly Migration[];
  /** The schema of the ledger and of the SQL run (default: the connection's search path). */
  readonly schema?: string;
  /** A ledger that differs from the list: refused (default) or, on a development database, reapplied. */
  readonly onMismatch?: MigrationMismatchPolicy;
}

/**
 * Runs the migrations not yet recorded in `table`, in order, in one transaction, in a schema
 * (default: the connection's search path). Idempotent; concurrent runs are serialised by an
 * advisory lock on the table's name.
 *
 * The ledger records each migration's number, id and checksum (SHA-256 of its SQL, line endings
 * as `\n`). A database that applied, under a number, another id or other SQL than the list's, or
 * a number the list lacks (code older than the database), is refused with a
 * {@linkcode MigrationMismatchError} naming both, and nothing is applied (unless `onMismatch` is
 * `reapply`). A ledger made before ids and checksums were recorded (number and time only) gets
 * its columns, filled from the list: it trusts what it finds, once.
 *
 * @example
 * ```ts ignore
 * await runMigrations(sql, { table: "clinic_migrations", migrations: clinicMigrations, schema: "clinic" });
 * ```
 */
export async function runMigrations(
  sql: postgres.Sql,
  options: RunMigrationsOptions,
): Promise<void> {
  const { table, schema } = options;
  for (const name of [table, ...(schema === undefined ? [] : [schema])]) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
      throw new TypeError(
        `Invalid schema or table name ${JSON.stringify(name)}: use lower-case snake_case`,
      );
    }
  }
  const ledger = schema === undefined ? table : `${schema}.${table}`;
  const listed = await projectMigrations(options.migrations, ledger);
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${table}))`;
    if (schema !== undefined) {
      await tx.unsafe(`create schema if not exists "${schema}"`);
      await tx.unsafe(`set local search_path to "${schema}"`);
    }
    await tx.unsafe(
      `create table if not exists ${table} (version integer primary key, id text, checksum text, applied_at timestamptz not null default now())`,
    );
    // A ledger from before ids and checksums: the columns, filled from the list below (altered
    // only then, so that a role that may not alter it runs on an upgraded ledger).
    const columns = new Set(
      (await tx.unsafe(
        `select attname from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped`,
        [table],
      )).map((r) => r.attname as string),
    );
    if (!columns.has("id") || !columns.has("checksum")) {
      await tx.unsafe(`alter table ${table} add column if not exists id text`);
      await tx.unsafe(`alter table ${table} add column if not exists checksum text`);
    }
    const rows = await tx.unsafe(`select version, id, checksum from ${table} order by version`);
    const mismatches: LedgerMismatch[] = [];
    for (const row of rows) {
      const version = row.version as number;
      const mine = listed.get(version);
      if (row.checksum === null && mine !== undefined) {
        await tx.unsafe(`update ${table} set id = $1, checksum = $2 where version = $3`, [
          mine.id,
          mine.checksum,
          version,
        ]);
        continue;
      }
      const applied = { id: row.id ?? String(version), checksum: row.checksum ?? "unknown" };
      if (mine === undefined) mismatches.push({ version, applied });
      else if (mine.id !== applied.id || mine.checksum !== applied.checksum) {
        mismatches.push({ version, applied, project: { id: mine.id, checksum: mine.checksum } });
      }
    }
    let done = new Set(rows.map((r) => r.version as number));
    if (mismatches.length > 0) {
      if (options.onMismatch !== "reapply") throw new MigrationMismatchError(ledger, mismatches);
      const from = Math.min(...mismatches.map((m) => m.version));
      for (const row of rows.filter((r) => (r.version as number) >= from)) {
        consoleLogger().log({
          level: "warn",
          component: "db.migrations",
          code: "MIGRATION_REAPPLIED",
          message:
            `${ledger}: reapply (development database): forgetting migration ${row.version} (${
              row.id ?? row.version
            }) and running the list from ${from}`,
        });
      }
      await tx.unsafe(`delete from ${table} where version >= $1`, [from]);
      done = new Set([...done].filter((version) => version < from));
    }
    for (const [version, migration] of listed) {
      if (done.has(version)) continue;
      await tx.unsafe(migration.sql);
      await tx.unsafe(`insert into ${table} (version, id, checksum) values ($1, $2, $3)`, [
        version,
        migration.id,
        migration.checksum,
      ]);
    }
  });
}

/** The list by number, in order, each with its id and checksum; two under one number refused. */
async function projectMigrations(
  migrations: readonly Migration[],
  ledger: string,
): Promise<Map<number, { id: string; sql: string; checksum: string }>> {
  const out = new Map<number, { id: string; sql: string; checksum: string }>();
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const id = migration.id ?? String(migration.version);
    const other = out.get(migration.version);
    if (!Number.isSafeInteger(migration.version) || migration.version < 1) {
      throw new TypeError(`${ledger}: migration ${id} has no valid number (${migration.version})`);
    }
    if (other !== undefined) {
      throw new TypeError(
        `${ledger}: two migrations are numbered ${migration.version} (${other.id}, ${id}): renumber one`,
      );
    }
    out.set(migration.version, {
      id,
      sql: migration.sql,
      checksum: await migrationChecksum(migration.sql),
    });
  }
  return out;
}
