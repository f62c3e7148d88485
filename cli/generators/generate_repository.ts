import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { updateRegion } from "../files/marker_regions.ts";
import { readRegion } from "../files/marker_regions.ts";
import {
  aOrAn,
  camelOf,
  checkPascal,
  kebabOf,
  type KitConfig,
  ormOf,
  pascalOf,
  readConfig,
} from "../project/kit_config.ts";
import {
  existsCode,
  migrationFile,
  repositoryFiles,
  tableConstOf,
} from "./repository_templates.ts";
import { ormRegistration, planSchemaRegistry } from "./orm_repository.ts";
import { projectTemplate } from "../templates/project_template.ts";
import { planErrorCodeDeclaration } from "./generate_error_code.ts";
import { checkContext } from "./generate_simple.ts";
import { planBuilder } from "./aggregate_builder.ts";
import { aggregatesOf, didYouMean, orRun } from "./close_names.ts";

/** The shared, ordered migration list of the project. */
export const migrationsListPath = "src/platform/database/migrations.ts";

const composePath = "src/platform/compose-application.ts";

/**
 * Plans the registration of a context's repository with the platform: its in-memory adapter in
 * the \`memory-repositories\` region, its PostgreSQL adapter (built on the platform's database) in
 * the \`postgres-repositories\` region, and their imports; text outside the markers untouched.
 */
export async function planRepositoryRegistration(
  root: string,
  context: string,
  aggregate: string,
): Promise<FileWrite> {
  const kebab = kebabOf(aggregate);
  const registration = `${camelOf(context)}${aggregate}Repository`;
  const infrastructure = `../contexts/${context}/infrastructure/${kebab}`;
  let text = await readFile(join(root, composePath), "utf8");
  const add = (region: string, ...entries: string[]) => {
    text = updateRegion(
      text,
      region,
      [...readRegion(text, region, composePath), ...entries],
      composePath,
    );
  };
  const orm = ormOf(await readConfig(root));
  const memory = `import { ${registration} } from "${infrastructure}.memory-repository.ts";`;
  if (orm === "postgres") {
    add(
      "provider-imports",
      memory,
      `import { ${registration}OnPostgres } from "${infrastructure}.postgres-repository.ts";`,
    );
    add("postgres-repositories", `${registration}OnPostgres,`);
  } else {
    // On Drizzle or Knex: built on the ORM's database, in the region of the ORM's repositories.
    const { importLine, entry } = ormRegistration(orm, registration, infrastructure);
    add("provider-imports", memory, importLine);
    add("orm-repositories", entry);
  }
  add("memory-repositories", `${registration},`);
  return { path: composePath, contents: text };
}

/** One migration found on disk: `src/contexts/<context>/infrastructure/migrations/NNNN-<name>.ts`. */
export interface MigrationOnDisk {
  readonly context: string;
  readonly version: number;
  readonly name: string;
  readonly path: string;
}

/** `0002`, `scheduling`, `create-appointments` -> `m0002SchedulingCreateAppointments`. */
export function migrationConst(version: number, context: string, name: string): string {
  return `m${String(version).padStart(4, "0")}${pascalOf(context)}${pascalOf(name)}`;
}

/** The migrations of the project's contexts on disk, by context then number. */
export async function migrationsOnDisk(
  root: string,
  config: KitConfig,
): Promise<MigrationOnDisk[]> {
  const out: MigrationOnDisk[] = [];
  for (const { name: context } of config.contexts) {
    const dir = `src/contexts/${context}/infrastructure/migrations`;
    if (!existsSync(join(root, dir))) continue;
    for (const file of (await readdir(join(root, dir))).sort()) {
      const match = /^(\d{4})-([a-z0-9-]+)\.ts$/.exec(file);
      if (match === null) continue;
      out.push({ context, version: Number(match[1]), name: match[2]!, path: `${dir}/${file}` });
    }
  }
  return out;
}

/** The migration list, rewritten between its markers from the migrations given (sorted). */
export async function planList(
  root: string,
  migrations: readonly MigrationOnDisk[],
): Promise<FileWrite> {
  const path = join(root, migrationsListPath);
  let text = existsSync(path) ? await readFile(path, "utf8") : projectTemplate(migrationsListPath);
  const consts = migrations.map((m) => ({
    ...m,
    id: migrationConst(m.version, m.context, m.name),
  }));
  text = updateRegion(
    text,
    "migration-imports",
    consts.map((m) => `import { ${m.id} } from "../../${m.path.slice("src/".length)}";`),
    migrationsListPath,
  );
  text = updateRegion(text, "migrations", consts.map((m) => `${m.id},`), migrationsListPath);
  return { path: migrationsListPath, contents: text };
}

/**
 * Plans a repository of an aggregate: its port, an in-memory and a PostgreSQL adapter (both
 * registered with the platform, which provides one by its store), tenant-aware (a row written
 * with the work's tenant, read by that tenant's work only) and versioned (a stale save is
 * `CONCURRENT_UPDATE`), its rows keyed by tenant and id (a duplicate in one tenant is
 * `<AGGREGATE>_EXISTS`, 409, declared in the context's error codes), a spec that proves it on
 * both, and its table (with `tenant_id` and `version`) in a new numbered migration (in the context's schema), listed in the project's one
 * ordered migration list. Run again on an existing repository whose migration
 * number another migration took too (two branches merged), it renumbers its migration on top
 * and registers the repository again if the merge lost its registrations.
 */
export async function planRepository(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "aggregate name");
  const kebab = kebabOf(name);
  const base = `src/contexts/${context}`;
  checkAggregateExists(root, context, name, `${base}/domain/${kebab}.ts`);
  const table = `${kebab.replaceAll("-", "_")}s`;
  const repository: RepositoryNames = {
    context,
    name,
    kebab,
    base,
    table,
    migrationName: `create-${table.replaceAll("_", "-")}`,
  };
  const migrations = await migrationsOnDisk(root, config);
  const own = migrations.find((m) => m.context === context && m.name === repository.migrationName);
  const portPath = `${base}/application/ports/${kebab}-repository.ts`;
  if (existsSync(join(root, portPath)) || own !== undefined) {
    if (own === undefined || !migrations.some((m) => m !== own && m.version === own.version)) {
      throw new CliError(`Repository '${name}Repository' exists already in context '${context}'`);
    }
    return await planMigrationOnTop(root, config, repository, own, migrations);
  }
  return await withDerived(
    root,
    config,
    await planNewRepository(root, config, repository, migrations),
  );
}

/** The names a repository's files use. */
interface RepositoryNames {
  readonly context: string;
  /** The aggregate's name. */
  readonly name: string;
  readonly kebab: string;
  /** `src/contexts/<context>`. */
  readonly base: string;
  readonly table: string;
  /** `create-<table>`. */
  readonly migrationName: string;
}

function checkAggregateExists(root: string, context: string, name: string, path: string): void {
  if (!existsSync(join(root, path))) {
    throw new CliError(
      `Aggregate '${name}' does not exist in context '${context}': ${
        orRun(didYouMean(name, aggregatesOf(root, context)))
      }'kit generate aggregate ${context} ${name}' first`,
    );
  }
}

/**
 * Two branches each took the next number: this one's migration goes on top of the list, and the
 * repository is registered again (a merge may have kept one side's registrations only:
 * registering is idempotent).
 */
async function planMigrationOnTop(
  root: string,
  config: KitConfig,
  { context, name, kebab, table }: RepositoryNames,
  own: MigrationOnDisk,
  migrations: readonly MigrationOnDisk[],
): Promise<FileWrite[]> {
  const version = Math.max(...migrations.map((m) => m.version)) + 1;
  const moved: MigrationOnDisk = {
    ...own,
    version,
    path: own.path.replace(/\d{4}-/, `${String(version).padStart(4, "0")}-`),
  };
  const old = await readFile(join(root, own.path), "utf8");
  return [
    { path: own.path, contents: "", remove: true },
    {
      path: moved.path,
      create: true,
      contents: old
        .replace(
          migrationConst(own.version, context, own.name),
          migrationConst(version, context, own.name),
        )
        .replace(/version: \d+,/, `version: ${version},`),
    },
    await planList(root, [...migrations.filter((m) => m !== own), moved]),
    await planRepositoryRegistration(root, context, name),
    ...(ormOf(config) === "drizzle"
      ? [await planSchemaRegistry(root, context, kebab, tableConstOf(table))]
      : []),
  ];
}

/** A new repository's files, its migration on top of the list, its registration, builder and code. */
async function planNewRepository(
  root: string,
  config: KitConfig,
  { context, name, kebab, base, table, migrationName }: RepositoryNames,
  migrations: readonly MigrationOnDisk[],
): Promise<FileWrite[]> {
  const version = Math.max(0, ...migrations.map((m) => m.version)) + 1;
  const migration: MigrationOnDisk = {
    context,
    version,
    name: migrationName,
    path: `${base}/infrastructure/migrations/${
      String(version).padStart(4, "0")
    }-${migrationName}.ts`,
  };
  const orm = ormOf(config);
  return [
    ...repositoryFiles(context, name, kebab, table, orm).map((w) => ({ ...w, create: true })),
    // On Drizzle, every table is listed in the schema registry.
    ...(orm === "drizzle"
      ? [await planSchemaRegistry(root, context, kebab, tableConstOf(table))]
      : []),
    {
      path: migration.path,
      create: true,
      contents: migrationFile(
        migrationConst(version, context, migrationName),
        version,
        context,
        migrationName,
        table,
      ),
    },
    await planList(root, [...migrations, migration]),
    await planRepositoryRegistration(root, context, name),
    // Its spec makes its aggregates through the aggregate's test builder.
    ...await planBuilder(root, context, name),
    // A create of an id its tenant keeps already: a code of its own, 409.
    ...await planErrorCodeDeclaration(root, context, {
      code: existsCode(name),
      status: 409,
      description: `The tenant has ${aOrAn(name)} of this id already`,
    }),
  ];
}
