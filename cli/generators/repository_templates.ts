import { aOrAn, camelOf, kebabOf, type Orm, pascalOf } from "../project/kit_config.ts";
import { errorCodesName } from "./generate_error_code.ts";
import { builderNames } from "./aggregate_builder.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/**
 * One numbered migration creating a repository's table in its context's schema: each row the
 * aggregate's snapshot (`data`) with its tenant and its version, keyed by `(tenant_id, id)`.
 */
export function migrationFile(
  constant: string,
  version: number,
  context: string,
  name: string,
  table: string,
): string {
  const schema = context.replaceAll("-", "_");
  return generatorTemplate("repository/migration.ts", {
    schema,
    table,
    constant,
    version: String(version),
    context,
    name,
  });
}

/**
 * The port, the in-memory and PostgreSQL adapters, and the spec of a repository; the PostgreSQL
 * adapter on the project's ORM (postgres.js, Drizzle with its table, or Knex).
 */
export function repositoryFiles(
  context: string,
  name: string,
  kebab: string,
  table: string,
  orm: Orm = "postgres",
): { path: string; contents: string }[] {
  const base = `src/contexts/${context}`;
  const port = `${name}Repository`;
  const adapter = orm === "postgres"
    ? {
      path: `${base}/infrastructure/${kebab}.postgres-repository.ts`,
      contents: postgresRepositoryFile(context, name, kebab, table),
    }
    : {
      path: `${base}/infrastructure/${kebab}.${orm}-repository.ts`,
      contents: ormRepositoryFile(orm, context, name, kebab, table),
    };
  return [
    {
      path: `${base}/application/ports/${kebab}-repository.ts`,
      contents: portFile(context, name, kebab),
    },
    {
      path: `${base}/infrastructure/${kebab}.memory-repository.ts`,
      contents: memoryRepositoryFile(context, name, kebab),
    },
    adapter,
    ...(orm === "drizzle"
      ? [{
        path: `${base}/infrastructure/${kebab}.table.ts`,
        contents: generatorTemplate("repository/drizzle-table.ts", {
          name,
          kebab,
          schema: schemaOf(context),
          table,
          tableConst: tableConstOf(table),
        }),
      }]
      : []),
    {
      path: `${base}/infrastructure/${kebab}.repository.spec.ts`,
      contents: repositorySpecFile(context, name, kebab, port, table, orm),
    },
  ];
}

function portFile(context: string, name: string, kebab: string): string {
  const port = `${name}Repository`;
  const variable = name.charAt(0).toLowerCase() + name.slice(1);
  const one = aOrAn(name);
  return generatorTemplate("repository/port.ts", {
    name,
    kebab,
    one,
    port,
    exists: existsCode(name),
    variable,
    context,
  });
}

function memoryRepositoryFile(context: string, name: string, kebab: string): string {
  const port = `${name}Repository`;
  const errors = errorCodesName(context);
  return generatorTemplate("repository/memory-repository.ts", {
    errors,
    context,
    name,
    kebab,
    port,
    existsError: existsError(errors, name, "id"),
    camel: camelOf(context),
  });
}

/** The code a create of an id the tenant keeps already answers (\`LOAN_EXISTS\`, 409). */
export function existsCode(aggregate: string): string {
  return `${kebabOf(aggregate).toUpperCase().replaceAll("-", "_")}_EXISTS`;
}

/** How a repository refuses an id its tenant keeps already: nothing of other tenants said. */
function existsError(errors: string, name: string, id: string): string {
  return `${errors}.${existsCode(name)}.error(\`The tenant has ${
    aOrAn(name)
  } of id '\${${id}}' already: choose another id\`, { ${id} })`;
}

function postgresRepositoryFile(
  context: string,
  name: string,
  kebab: string,
  table: string,
): string {
  const port = `${name}Repository`;
  const errors = errorCodesName(context);
  const qualified = `"${context.replaceAll("-", "_")}"."${table}"`;
  return generatorTemplate("repository/postgres-repository.ts", {
    errors,
    context,
    name,
    kebab,
    port,
    existsError: existsError(errors, name, "id"),
    camel: camelOf(context),
    qualified,
    qualifiedName: qualified.replaceAll('"', ""),
  });
}

/** The database schema of a context: its name, `_` for `-`. */
function schemaOf(context: string): string {
  return context.replaceAll("-", "_");
}

/** The Drizzle table's constant: `loan_items` -> `loanItems`. */
export function tableConstOf(table: string): string {
  return camelOf(table.replaceAll("_", "-"));
}

/** The class of a repository's PostgreSQL adapter: `Postgres`, `Drizzle` or `Knex`. */
function storeOf(orm: Orm): string {
  return pascalOf(orm);
}

function ormRepositoryFile(
  orm: Exclude<Orm, "postgres">,
  context: string,
  name: string,
  kebab: string,
  table: string,
): string {
  const errors = errorCodesName(context);
  return generatorTemplate(`repository/${orm}-repository.ts`, {
    errors,
    context,
    name,
    kebab,
    port: `${name}Repository`,
    existsError: existsError(errors, name, "id"),
    camel: camelOf(context),
    schema: schemaOf(context),
    table,
    tableConst: tableConstOf(table),
    qualifiedName: `${schemaOf(context)}.${table}`,
  });
}

function repositorySpecFile(
  context: string,
  name: string,
  kebab: string,
  port: string,
  table: string,
  orm: Orm,
): string {
  const build = builderNames(name).instance;
  const exists = existsCode(name);
  const store = storeOf(orm);
  const tokens = { port, store, schema: schemaOf(context), table, tableConst: tableConstOf(table) };
  const imports = [
    `import { ${store}${port} } from "./${kebab}.${orm}-repository.ts";`,
    ...(orm === "postgres" ? [] : [
      'import { openOrm } from "../../../platform/database/orm.ts";',
    ]),
    ...(orm === "drizzle"
      ? [
        'import { getTableConfig } from "drizzle-orm/pg-core";',
        `import { ${tokens.tableConst} } from "./${kebab}.table.ts";`,
      ]
      : []),
  ];
  const onDatabase = orm === "postgres"
    ? generatorTemplate("repository/spec-postgres.part.ts", tokens)
    : generatorTemplate("repository/spec-orm.part.ts", {
      ...tokens,
      tableCheck: orm === "drizzle"
        ? generatorTemplate("repository/spec-drizzle-table.part.ts", tokens)
        : "",
    });
  return generatorTemplate("repository/repository.spec.ts", {
    name,
    kebab,
    port,
    build,
    exists,
    store,
    storeImports: imports.map((line) => `${line}\n`).join(""),
    onDatabase,
  });
}
