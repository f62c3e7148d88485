import type postgres from "postgres";
import { type Migration, MigrationMismatchError, runMigrations } from "@kit/kernel/postgres";
// kit:begin migration-imports
// kit:end

/** Every context's migrations, one ordered list (each creates its tables in its context's schema). */
export const migrations: readonly Migration[] = [
  // kit:begin migrations
  // kit:end
];

/** How the migrations run: `reapply` (`KIT_MIGRATIONS_REAPPLY=1`, see `migrateDatabase`). */
export interface MigrationOptions {
  readonly reapply?: boolean;
}

/**
 * Runs the migrations not yet applied, in order (idempotent). A database that applied another
 * migration under one of these numbers (other id or SQL), or a number this list lacks, is refused
 * and nothing runs. On a development database only, `reapply` (`KIT_MIGRATIONS_REAPPLY=1`)
 * forgets the ledger from the first difference and runs the list from there (each generated
 * migration is `create ... if not exists`), with a warning for each migration forgotten.
 */
export async function migrateDatabase(
  sql: postgres.Sql,
  options: MigrationOptions = {},
): Promise<void> {
  const reapply = options.reapply ?? false;
  try {
    await runMigrations(sql, {
      table: "kit_app_migrations",
      migrations,
      onMismatch: reapply ? "reapply" : "refuse",
    });
  } catch (error) {
    if (!(error instanceof MigrationMismatchError)) throw error;
    throw new Error(
      `${error.message}. In this project: KIT_MIGRATIONS_REAPPLY=1 (development databases only)`,
      { cause: error },
    );
  }
}
