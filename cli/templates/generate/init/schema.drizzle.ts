/**
 * The project's Drizzle schema: every context's tables, as `kit generate repository` declares
 * them (`src/contexts/<context>/infrastructure/<aggregate>.table.ts`), for drizzle-kit
 * (`schema: "./src/platform/database/schema.ts"`) and for Drizzle's queries. The tables are made
 * by the numbered SQL migrations of `migrations.ts`; each repository's spec checks its table
 * against the migrated database.
 *
 * @module
 */
// kit:begin tables
// kit:end
