import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { KitConfig } from "../project/kit_config.ts";
import { migrationFiles } from "./migration_numbers.ts";

/** A table a migration created keyed by `id` alone, with a `tenant_id`, and none re-keyed since. */
export interface KeyedById {
  readonly context: string;
  readonly schema: string;
  readonly table: string;
  /** The migration that created it. */
  readonly path: string;
}

/**
 * The tables of the project's migrations created as `kit generate repository` wrote them before
 * ids per tenant (`id text primary key` beside `tenant_id`), that no migration gives another
 * primary key since: one tenant's id blocks another tenant's there, and the refusal reveals it.
 */
export function tablesKeyedById(root: string, config: KitConfig): KeyedById[] {
  const files = migrationFiles(root, config).sort((a, b) => a.version - b.version);
  const texts = files.map((file) => ({
    ...file,
    text: readFileSync(join(root, file.path), "utf8"),
  }));
  const found: KeyedById[] = [];
  for (const [index, file] of texts.entries()) {
    for (
      const match of file.text.matchAll(
        /create table(?: if not exists)? "([a-z0-9_]+)"\."([a-z0-9_]+)" \(([^;]*?)\n\);/g,
      )
    ) {
      const [, schema, table, columns] = match as unknown as [string, string, string, string];
      if (!/^\s*id text primary key,/m.test(columns) || !/^\s*tenant_id text\b/m.test(columns)) {
        continue;
      }
      const rekeyed = new RegExp(
        `alter table "${schema}"\\."${table}"[^;]*\\bprimary key\\b`,
      );
      if (texts.slice(index + 1).some((later) => rekeyed.test(later.text))) continue;
      found.push({ context: file.context, schema, table, path: file.path });
    }
  }
  return found;
}
