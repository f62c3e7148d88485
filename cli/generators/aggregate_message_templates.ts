import { aOrAn, camelOf, kebabOf } from "../project/kit_config.ts";
import { errorCodesName, errorCodesPath } from "./generate_error_code.ts";
import { builderNames, idIndexOf } from "./aggregate_builder.ts";
import { existsCode } from "./repository_templates.ts";
import type { FactoryParameter, Field } from "./message_shape.ts";
import { messageMaker, messageUnderTest } from "./message_maker.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** The three files of a message: the message, its handler, its spec. */
export interface MessageFiles {
  readonly message: string;
  readonly handler: string;
  readonly spec: string;
}

/** What a generator read of the aggregate's factory (nothing: the factory as kit writes it). */
export interface FactoryParameters {
  readonly parameters?: readonly FactoryParameter[] | undefined;
  readonly exportedTypes?: readonly string[];
}

/**
 * The tokens of a message's template that follow its permission: the kernel's names it imports
 * (`base`, the class it extends, and `Requires`), the import of the context's permissions, the
 * doc comment's "needs" and the `@Requires` line; empty without a permission.
 */
export function permissionTokens(
  camel: string,
  context: string,
  permission: string | undefined,
  base: string,
): { kernelImports: string; permissionsImport: string; needs: string; requires: string } {
  return {
    kernelImports: permission ? `${base}, Requires` : base,
    permissionsImport: permission
      ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n`
      : "",
    needs: permission ? `; needs '${permission}'` : "",
    requires: permission ? `@Requires(${camel}Permissions["${permission}"])\n` : "",
  };
}

/** The names a template of a message on an aggregate uses. */
function namesOf(context: string, aggregate: string, permission: string | undefined) {
  const aggregateKebab = kebabOf(aggregate);
  const variable = camelOf(aggregateKebab);
  return {
    camel: camelOf(context),
    aggregateKebab,
    variable,
    id: `${variable}Id`,
    repository: `${aggregate}Repository`,
    grants: `{ granted: [${permission ? `${camelOf(context)}Permissions["${permission}"]` : ""}] }`,
  };
}

/**
 * The imports and setup every spec of a message on an aggregate shares: the test application
 * with the aggregate's in-memory repository, callers of the tenants t1 and t2, and `seed`. It
 * makes its aggregates through the aggregate's test builder (`also`: more of its functions to
 * import; `withType`: the aggregate's type too).
 */
export function specPreamble(
  context: string,
  aggregate: string,
  permission: string | undefined,
  message: string,
  kind: "command" | "query",
  also: { readonly builder?: readonly string[]; readonly withType?: boolean } = {},
): string {
  const { camel, aggregateKebab, variable, repository, grants } = namesOf(
    context,
    aggregate,
    permission,
  );
  const builder = builderNames(aggregate);
  return generatorTemplate("aggregate-message/spec-preamble.part.ts", {
    camel,
    context,
    permissionsImport: permission
      ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n`
      : "",
    typeImport: also.withType
      ? `import type { ${aggregate} } from "../../../domain/${aggregateKebab}.ts";\n`
      : "",
    builderImports: [builder.instance, ...(also.builder ?? [])].join(", "),
    builderFile: builder.file,
    repository,
    aggregateKebab,
    message,
    messageKebab: kebabOf(message),
    kind,
    variable,
    grants,
    aggregate,
    build: builder.instance,
  });
}

/**
 * A command that creates an aggregate (`--aggregate <A> --creates`): the handler adds a new one
 * with the id the caller gives, for the work's tenant, and answers that id; an id the tenant keeps
 * already is `<AGGREGATE>_EXISTS` (409), never an overwrite; another tenant's is no obstacle.
 */
export function creatingTemplates(
  context: string,
  name: string,
  kebab: string,
  permission: string | undefined,
  aggregate: string,
  factory: FactoryParameters = {},
): MessageFiles {
  const names = namesOf(context, aggregate, permission);
  // Its inputs are the factory's parameters as the code has them now (the id named for the aggregate).
  const parameters = factory.parameters ??
    [{ name: "id", type: "string", shape: undefined, optional: false }];
  const idIndex = idIndexOf(parameters, aggregate);
  const inputs = parameters.map((p, index) => ({
    ...p,
    name: index === idIndex ? names.id : p.name,
  }));
  const creating: Creating = {
    context,
    name,
    kebab,
    permission,
    aggregate,
    names,
    inputs,
    factory,
  };
  return {
    message: creatingMessage(creating),
    handler: creatingHandler(creating),
    spec: creatingSpec(creating),
  };
}

/** A message on an aggregate: its names, and those {@linkcode namesOf} derives. */
interface OnAggregate {
  readonly context: string;
  readonly name: string;
  readonly kebab: string;
  readonly permission: string | undefined;
  readonly aggregate: string;
  readonly names: ReturnType<typeof namesOf>;
}

/** A command creating an aggregate: its inputs are the factory's parameters. */
interface Creating extends OnAggregate {
  readonly inputs: readonly FactoryParameter[];
  readonly factory: FactoryParameters;
}

function creatingMessage(
  { context, name, permission, aggregate, names, inputs, factory }: Creating,
): string {
  const base = permission ? "AuthorizedCommand" : "Command";
  const typeImports = (factory.exportedTypes ?? []).filter((type) =>
    inputs.some((input) => new RegExp(`\\b${type}\\b`).test(input.type))
  );
  return generatorTemplate("create-command/command.ts", {
    ...permissionTokens(names.camel, context, permission, base),
    typeImports: typeImports.length > 0
      ? `import type { ${
        typeImports.join(", ")
      } } from "../../../domain/${names.aggregateKebab}.ts";\n`
      : "",
    name,
    one: aOrAn(aggregate),
    exists: existsCode(aggregate),
    base,
    inputs: inputs.map((i) => `readonly ${i.name}${i.optional ? "?" : ""}: ${i.type}`).join(", "),
  });
}

function creatingHandler(
  { context, name, kebab, aggregate, names, inputs }: Creating,
): string {
  return generatorTemplate("create-command/handler.ts", {
    aggregate,
    aggregateKebab: names.aggregateKebab,
    repository: names.repository,
    name,
    kebab,
    errors: errorCodesName(context),
    exists: existsCode(aggregate),
    variable: names.variable,
    commandArguments: inputs.map((i) => `command.${i.name}`).join(", "),
    id: names.id,
  });
}

function creatingSpec(
  { context, name, permission, aggregate, names, inputs, factory }: Creating,
): string {
  return generatorTemplate("create-command/spec.ts", {
    forbiddenImport: permission ? "ForbiddenError, " : "",
    preamble: specPreamble(context, aggregate, permission, name, "command", {
      builder: [builderNames(aggregate).arguments],
    }),
    messageUnderTest: messageUnderTest(`command ${context}`, name, inputs.map(fieldOf), {
      kind: "creates",
      aggregate,
      factory: factory.parameters,
    }),
    new: messageMaker(name),
    aggregate,
    variable: names.variable,
    name,
    exists: existsCode(aggregate),
    permissionTest: permission
      ? generatorTemplate("create-command/refused.spec.part.ts", {
        new: messageMaker(name),
        permission,
        name,
      })
      : generatorTemplate("create-command/unguarded.spec.part.ts", {
        new: messageMaker(name),
        name,
      }),
  });
}

/**
 * A query on an aggregate: with \`search\`, one page of the tenant's (by id), answered as their
 * snapshots with the total; without, the one of an id (\`<AGGREGATE>_NOT_FOUND\` when the tenants
 * the work reaches have none).
 */
export function aggregateQueryTemplates(
  context: string,
  name: string,
  kebab: string,
  permission: string | undefined,
  aggregate: string,
  search: boolean,
): MessageFiles {
  const query = {
    context,
    name,
    kebab,
    permission,
    aggregate,
    names: namesOf(context, aggregate, permission),
    search,
  };
  return { message: queryMessage(query), handler: queryHandler(query), spec: querySpec(query) };
}

function queryMessage(
  { context, name, permission, aggregate, names, search }: OnAggregate & { search: boolean },
): string {
  const base = permission ? "AuthorizedQuery" : "Query";
  const plural = `${aggregate}s`;
  const result = search
    ? generatorTemplate("aggregate-query/page-result.part.ts", { plural, name, aggregate })
    : generatorTemplate("aggregate-query/one-result.part.ts", { name, aggregate });
  return generatorTemplate("aggregate-query/query.ts", {
    ...permissionTokens(names.camel, context, permission, base),
    aggregate,
    aggregateKebab: names.aggregateKebab,
    result,
    name,
    what: search ? `a page of the ${plural} of the work's tenants` : `the ${aggregate} of an id`,
    base,
    inputs: search ? "readonly page = 1, readonly pageSize = 20" : `readonly ${names.id}: string`,
  });
}

function queryHandler(
  { context, name, kebab, aggregate, names, search }: OnAggregate & { search: boolean },
): string {
  return search
    ? generatorTemplate("aggregate-query/list-handler.ts", {
      repository: names.repository,
      aggregateKebab: names.aggregateKebab,
      name,
      kebab,
      plural: `${aggregate}s`,
      variable: names.variable,
    })
    : generatorTemplate(
      "aggregate-query/get-handler.ts",
      loadingHandlerTokens(context, name, kebab, aggregate),
    );
}

function querySpec(
  { context, name, permission, aggregate, names, search }: OnAggregate & { search: boolean },
): string {
  return generatorTemplate("aggregate-query/spec.ts", {
    conceptErrorImport: search ? "" : "ConceptError, ",
    forbiddenImport: permission ? "ForbiddenError, " : "",
    isRefusalImport: search ? "isRefusal, " : "",
    preamble: specPreamble(context, aggregate, permission, name, "query"),
    messageUnderTest: search
      ? messageUnderTest(`query ${context}`, name, pageInputs, { kind: "page" })
      : messageUnderTest(`query ${context}`, name, [idField(names.id)], { kind: "on", aggregate }),
    tests: search
      ? generatorTemplate("aggregate-query/list.spec.part.ts", {
        new: messageMaker(name),
        name,
        plural: `${aggregate}s`,
        variable: names.variable,
        build: builderNames(aggregate).instance,
      })
      : generatorTemplate("aggregate-query/get.spec.part.ts", {
        new: messageMaker(name),
        name,
        aggregate,
      }),
    permissionTest: permission
      ? generatorTemplate("aggregate-query/refused.spec.part.ts", {
        new: messageMaker(name),
        name,
        permission,
        idArgument: search ? "" : ', "g1"',
      })
      : "",
  });
}

/**
 * The tokens of a handler that loads an aggregate by its id (and refuses an unknown one with its
 * `<AGGREGATE>_NOT_FOUND` code): its names, the context's errors and the repository's.
 */
export function loadingHandlerTokens(
  context: string,
  name: string,
  kebab: string,
  aggregate: string,
): Record<string, string> {
  const { aggregateKebab, variable, id, repository } = namesOf(context, aggregate, undefined);
  return {
    errors: errorCodesName(context),
    errorsFile: errorCodesPath(context).split("/").pop() ?? "",
    repository,
    aggregateKebab,
    name,
    kebab,
    aggregate,
    variable,
    id,
    notFound: notFoundCode(aggregate),
  };
}

/** The code of an aggregate that is not found (`LOAN_NOT_FOUND`). */
export function notFoundCode(aggregate: string): string {
  return `${kebabOf(aggregate).toUpperCase().replaceAll("-", "_")}_NOT_FOUND`;
}

/** A factory's parameter as a message's input. */
function fieldOf(parameter: FactoryParameter): Field {
  return {
    name: parameter.name,
    shape: parameter.shape ?? { kind: "string" },
    optional: parameter.optional,
  };
}

/** The input of a message on an aggregate that names it (`bikeId`). */
export function idField(name: string): Field {
  return { name, shape: { kind: "string" }, optional: false };
}

/** A search's inputs: `page = 1, pageSize = 20`. */
export const pageInputs: readonly Field[] = [
  { name: "page", shape: { kind: "number" }, optional: true, initializer: "1" },
  { name: "pageSize", shape: { kind: "number" }, optional: true, initializer: "20" },
];
