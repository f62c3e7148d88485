import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import { tablesKeyedById } from "../derive/tenant_keys.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { generatorTemplate } from "../templates/project_template.ts";
import { checkContext } from "./generate_simple.ts";
import {
  migrationConst,
  type MigrationOnDisk,
  migrationsOnDisk,
  planList,
} from "./generate_repository.ts";

/**
 * Plans the migration that re-keys the table of an aggregate's repository generated before ids
 * per tenant (`id text primary key`) by `(tenant_id, id)`, every row kept: the next number, listed
 * in the project's migration list. Refuses an aggregate whose table is keyed per tenant already
 * (or that has none), writing nothing. The PostgreSQL adapter is the user's to update in the same
 * deploy (docs/operations/ids-per-tenant.md).
 */
export async function planRekey(
  root: string,
  config: KitConfig,
  context: string,
  aggregate: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(aggregate, "aggregate name");
  const table = `${kebabOf(aggregate).replaceAll("-", "_")}s`;
  const keyed = tablesKeyedById(root, config).find((found) =>
    found.context === context && found.table === table
  );
  if (keyed === undefined) {
    throw new CliError(
      `No migration of context '${context}' creates ${table} keyed by id alone: it is keyed by (tenant_id, id) already, or ${aggregate} has no repository ('kit generate repository ${context} ${aggregate}' writes one keyed per tenant)`,
    );
  }
  const migrations = await migrationsOnDisk(root, config);
  const version = Math.max(0, ...migrations.map((m) => m.version)) + 1;
  const name = `rekey-${table.replaceAll("_", "-")}`;
  const migration: MigrationOnDisk = {
    context,
    version,
    name,
    path: `src/contexts/${context}/infrastructure/migrations/${
      String(version).padStart(4, "0")
    }-${name}.ts`,
  };
  return await withDerived(root, config, [
    {
      path: migration.path,
      create: true,
      contents: generatorTemplate("rekey/migration.ts", {
        constant: migrationConst(version, context, name),
        version: String(version),
        context,
        name,
        schema: keyed.schema,
        table,
      }),
    },
    await planList(root, [...migrations, migration]),
  ]);
}
