import { aOrAn, camelOf, kebabOf } from "../project/kit_config.ts";
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

/** The port, the in-memory and PostgreSQL adapters, and the spec of a repository. */
export function repositoryFiles(
  context: string,
  name: string,
  kebab: string,
  table: string,
): { path: string; contents: string }[] {
  const base = `src/contexts/${context}`;
  const port = `${name}Repository`;
  return [
    {
      path: `${base}/application/ports/${kebab}-repository.ts`,
      contents: portFile(context, name, kebab),
    },
    {
      path: `${base}/infrastructure/${kebab}.memory-repository.ts`,
      contents: memoryRepositoryFile(context, name, kebab),
    },
    {
      path: `${base}/infrastructure/${kebab}.postgres-repository.ts`,
      contents: postgresRepositoryFile(context, name, kebab, table),
    },
    {
      path: `${base}/infrastructure/${kebab}.repository.spec.ts`,
      contents: repositorySpecFile(name, kebab, port),
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

function repositorySpecFile(name: string, kebab: string, port: string): string {
  const build = builderNames(name).instance;
  const exists = existsCode(name);
  return generatorTemplate("repository/repository.spec.ts", { name, kebab, port, build, exists });
}
