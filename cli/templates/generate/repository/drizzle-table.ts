import { integer, jsonb, pgSchema, primaryKey, text } from "drizzle-orm/pg-core";
import type { $name$Snapshot } from "../domain/$kebab$.ts";

/**
 * The table $schema$.$table$ as Drizzle queries it (listed in `src/platform/database/schema.ts`;
 * made by its numbered migration, which the repository's spec checks it against): each row a
 * $name$'s snapshot (`data`) with its tenant and its version, keyed by `(tenant_id, id)`.
 */
export const $tableConst$ = pgSchema("$schema$").table("$table$", {
  tenantId: text("tenant_id").notNull(),
  id: text("id").notNull(),
  data: jsonb("data").$type<$name$Snapshot>().notNull(),
  version: integer("version").notNull(),
}, (table) => [primaryKey({ columns: [table.tenantId, table.id] })]);
