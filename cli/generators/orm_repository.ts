/**
 * What `kit generate repository` writes outside a context on a project on Drizzle or Knex: the
 * repository's registration in the `orm-repositories` region of `compose-application.ts` (built on
 * the ORM's database), and on Drizzle its table in the schema registry
 * (`src/platform/database/schema.ts`, the `tables` region).
 *
 * @module
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf, type Orm, pascalOf } from "../project/kit_config.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** The Drizzle schema registry of a project on Drizzle: every context's tables. */
export const schemaRegistryPath = "src/platform/database/schema.ts";

/**
 * The schema registry with the table of a context's repository exported as
 * `<context><Table>` (`lendingLoans`), sorted; text outside the markers untouched.
 *
 * @param root The project's root.
 * @param context The context.
 * @param kebab The aggregate's kebab-case name (the table's file).
 * @param tableConst The table's constant in its file (`loans`).
 * @returns The registry's write.
 */
export async function planSchemaRegistry(
  root: string,
  context: string,
  kebab: string,
  tableConst: string,
): Promise<FileWrite> {
  const path = join(root, schemaRegistryPath);
  const text = existsSync(path)
    ? await readFile(path, "utf8")
    : generatorTemplate("init/schema.drizzle.ts");
  const line = `export { ${tableConst} as ${camelOf(context)}${
    pascalOf(camelOf(tableConst))
  } } from "../../contexts/${context}/infrastructure/${kebab}.table.ts";`;
  const entries = [...new Set([...readRegion(text, "tables", schemaRegistryPath), line])].sort();
  return {
    path: schemaRegistryPath,
    contents: updateRegion(text, "tables", entries, schemaRegistryPath),
  };
}

/**
 * The import and the entry that register a repository on the ORM in `compose-application.ts`:
 * `lendingLoanRepositoryOnDrizzle` from `loan.drizzle-repository.ts`.
 *
 * @param orm The project's ORM.
 * @param registration The registration's prefix (`lendingLoanRepository`).
 * @param infrastructure The path of the context's infrastructure files and the aggregate's kebab.
 * @returns The import line and the region's entry.
 */
export function ormRegistration(
  orm: Exclude<Orm, "postgres">,
  registration: string,
  infrastructure: string,
): { readonly importLine: string; readonly entry: string } {
  const factory = `${registration}On${pascalOf(orm)}`;
  return {
    importLine: `import { ${factory} } from "${infrastructure}.${orm}-repository.ts";`,
    entry: `${factory},`,
  };
}
