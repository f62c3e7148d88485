import { aOrAn, camelOf, kebabOf } from "../project/kit_config.ts";
import { errorCodesName, errorCodesPath } from "./generate_error_code.ts";
import { builderNames, idIndexOf } from "./aggregate_builder.ts";
import { existsCode } from "./repository_templates.ts";
import type { FactoryParameter } from "./message_shape.ts";

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
  return `import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { ${camel}Module } from "../../../${context}.module.ts";
${permission ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n` : ""}${
    also.withType
      ? `import type { ${aggregate} } from "../../../domain/${aggregateKebab}.ts";\n`
      : ""
  }import { ${
    [builder.instance, ...(also.builder ?? [])].join(", ")
  } } from "../../../domain/${builder.file}";
import { ${repository} } from "../../ports/${aggregateKebab}-repository.ts";
import { InMemory${repository} } from "../../../infrastructure/${aggregateKebab}.memory-repository.ts";
import { ${message} } from "./${kebabOf(message)}.${kind}.ts";

const ${variable}s = new InMemory${repository}();
const application = testApplication([${camel}Module], {
  grants: ${grants},
  providers: [{ provide: ${repository}, provider: { useValue: ${variable}s } }],
});
// Each caller of one tenant works for it: the bus runs their messages in that tenant.
const actor = userActor("someone", { roles: ["granted"], tenants: ["t1"] });
const ofAnotherTenant = userActor("someone-of-t2", { roles: ["granted"], tenants: ["t2"] });
const inT1 = { origin: "test", actor, tenantId: "t1", correlationId: "spec" };

/** A ${aggregate} of the tenant t1, added as its repository's owner would. */
function seed(id: string): Promise<number> {
  return runInScope({ execution: inT1 }, () => ${variable}s.add(${builder.instance}(id)));
}
`;
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
  const { camel, aggregateKebab, variable, id, repository } = namesOf(
    context,
    aggregate,
    permission,
  );
  const base = permission ? "AuthorizedCommand" : "Command";
  const one = aOrAn(aggregate);
  const builder = builderNames(aggregate);
  const exists = existsCode(aggregate);
  // Its inputs are the factory's parameters as the code has them now (the id named for the aggregate).
  const parameters = factory.parameters ??
    [{ name: "id", type: "string", shape: undefined, optional: false }];
  const idIndex = idIndexOf(parameters, aggregate);
  const inputs = parameters.map((p, index) => ({ ...p, name: index === idIndex ? id : p.name }));
  const typeImports = (factory.exportedTypes ?? []).filter((type) =>
    inputs.some((input) => new RegExp(`\\b${type}\\b`).test(input.type))
  );
  const message = `import { type Actor, ${
    permission ? `${base}, Requires` : base
  } } from "@kit/kernel";
${
    typeImports.length > 0
      ? `import type { ${typeImports.join(", ")} } from "../../../domain/${aggregateKebab}.ts";\n`
      : ""
  }${
    permission ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n` : ""
  }
/**
 * ${name}: creates ${one} with the id the caller gives, for the work's tenant${
    permission ? `; needs '${permission}'` : ""
  }.
 * An id the tenant keeps already is refused (\`${exists}\`, 409): nothing is overwritten. Ids are
 * each tenant's own: another tenant's of the same id is neither an obstacle nor revealed.
 */
${
    permission
      ? `@Requires(${camel}Permissions["${permission}"])\n`
      : ""
  }export class ${name} extends ${base}<{ id: string }> {
  constructor(actor: Actor, ${
    inputs.map((i) => `readonly ${i.name}${i.optional ? "?" : ""}: ${i.type}`).join(", ")
  }) {
    super(actor);
  }
}
`;
  const handler = `import { Handles } from "@kit/kernel";
import { ${aggregate} } from "../../../domain/${aggregateKebab}.ts";
import { ${repository} } from "../../ports/${aggregateKebab}-repository.ts";
import { ${name} } from "./${kebab}.command.ts";

/**
 * Runs ${name}: adds a new ${aggregate} for the work's tenant and answers its id (its repository
 * refuses an id the tenant keeps already: \`${errorCodesName(context)}.${exists}\`).
 */
@Handles(${name})
export class ${name}Handler {
  constructor(private readonly ${variable}s: ${repository}) {}

  async handle(command: ${name}): Promise<{ id: string }> {
    // TODO(domain): what a new ${aggregate} is given, and what it refuses.
    await this.${variable}s.add(${aggregate}.create(${
    inputs.map((i) => `command.${i.name}`).join(", ")
  }));
    return { id: command.${id} };
  }
}
`;
  const spec = `import assert from "node:assert/strict";
import { ${
    permission ? "ForbiddenError, " : ""
  }isRefusal, runInScope, userActor } from "@kit/kernel";
${specPreamble(context, aggregate, permission, name, "command", { builder: [builder.arguments] })}
/** The version of the ${aggregate} as the tenant t1 finds it. */
async function versionOf(id: string): Promise<number | undefined> {
  return (await runInScope({ execution: inT1 }, () => ${variable}s.get(id)))?.version;
}

Deno.test("${name} adds the ${aggregate} at version 1 and answers its id", async () => {
  assert.deepEqual(await application.commands.execute(new ${name}(actor, ...${builder.arguments}("x1"))), { id: "x1" });
  assert.equal(await versionOf("x1"), 1);
});

Deno.test("${name} of an id the tenant keeps already is refused (${exists}), the first stands", async () => {
  await seed("x2");
  await assert.rejects(
    () => application.commands.execute(new ${name}(actor, ...${builder.arguments}("x2"))),
    (error) => isRefusal(error, "${exists}"),
  );
  assert.equal(await versionOf("x2"), 1);
});

Deno.test("${name} of an id another tenant keeps adds the tenant's own: ids are each tenant's", async () => {
  await seed("x5");
  assert.deepEqual(
    await application.commands.execute(new ${name}(ofAnotherTenant, ...${builder.arguments}("x5"))),
    { id: "x5" },
  );
  assert.equal(await versionOf("x5"), 1);
  const inT2 = { origin: "test", actor: ofAnotherTenant, tenantId: "t2", correlationId: "spec" };
  assert.equal((await runInScope({ execution: inT2 }, () => ${variable}s.get("x5")))?.version, 1);
});

Deno.test("${name} by a caller who names none of their tenants is refused (TENANT_REQUIRED)", async () => {
  const ofTwo = userActor("someone-of-two", { roles: ["granted"], tenants: ["t1", "t2"] });
  await assert.rejects(
    () => application.commands.execute(new ${name}(ofTwo, ...${builder.arguments}("x3"))),
    (error) => isRefusal(error, "TENANT_REQUIRED"),
  );
  assert.equal(await versionOf("x3"), undefined);
});
${
    permission
      ? `
Deno.test("${name} is refused to an actor without ${permission}", async () => {
  await assert.rejects(() => application.commands.execute(new ${name}(userActor("someone-else", { tenants: ["t1"] }), ...${builder.arguments}("x4"))), ForbiddenError);
  assert.equal(await versionOf("x4"), undefined);
});
`
      : `
Deno.test("${name} needs no permission: an actor with no role runs it", async () => {
  const withNoRole = userActor("someone-without-a-role", { tenants: ["t1"] });
  await application.commands.execute(new ${name}(withNoRole, ...${builder.arguments}("x4")));
  assert.equal(await versionOf("x4"), 1);
});
`
  }`;
  return { message, handler, spec };
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
  const { camel, aggregateKebab, variable, id, repository } = namesOf(
    context,
    aggregate,
    permission,
  );
  const base = permission ? "AuthorizedQuery" : "Query";
  const plural = `${aggregate}s`;
  const result = search
    ? `/** One page of ${plural}, by id, and how many there are in all. */
export interface ${name}Result {
  readonly items: readonly ${aggregate}Snapshot[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}
`
    : `/** What ${name} answers: the ${aggregate} as it is kept. */
export type ${name}Result = ${aggregate}Snapshot;
`;
  const inputs = search ? "readonly page = 1, readonly pageSize = 20" : `readonly ${id}: string`;
  const message = `import { type Actor, ${
    permission ? `${base}, Requires` : base
  } } from "@kit/kernel";
import type { ${aggregate}Snapshot } from "../../../domain/${aggregateKebab}.ts";
${permission ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n` : ""}
${result}
/** ${name}: ${
    search ? `a page of the ${plural} of the work's tenants` : `the ${aggregate} of an id`
  }${permission ? `; needs '${permission}'` : ""}. */
${
    permission
      ? `@Requires(${camel}Permissions["${permission}"])\n`
      : ""
  }export class ${name} extends ${base}<${name}Result> {
  constructor(actor: Actor, ${inputs}) {
    super(actor);
  }
}
`;
  const errors = errorCodesName(context);
  const handler = search
    ? `import { Handles } from "@kit/kernel";
import { ${repository} } from "../../ports/${aggregateKebab}-repository.ts";
import { ${name}, type ${name}Result } from "./${kebab}.query.ts";

/** Runs ${name}: one page of the ${plural} of the tenants the work reaches, by id. */
@Handles(${name})
export class ${name}Handler {
  constructor(private readonly ${variable}s: ${repository}) {}

  async handle(query: ${name}): Promise<${name}Result> {
    const found = await this.${variable}s.list(query.page, query.pageSize);
    return {
      items: found.items.map((${variable}) => ${variable}.snapshot()),
      total: found.total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }
}
`
    : `import { Handles } from "@kit/kernel";
import { ${errors} } from "../../../domain/${errorCodesPath(context).split("/").pop()}";
import { ${repository} } from "../../ports/${aggregateKebab}-repository.ts";
import { ${name}, type ${name}Result } from "./${kebab}.query.ts";

/** Runs ${name}: the ${aggregate} of the id, in the tenants the work reaches. */
@Handles(${name})
export class ${name}Handler {
  constructor(private readonly ${variable}s: ${repository}) {}

  async handle(query: ${name}): Promise<${name}Result> {
    const found = await this.${variable}s.get(query.${id});
    if (found === undefined) {
      throw ${errors}.${notFound(aggregate)}.error(\`No ${aggregate} \${query.${id}}\`);
    }
    return found.state.snapshot();
  }
}
`;
  const spec = `import assert from "node:assert/strict";
import { ${search ? "" : "ConceptError, "}${permission ? "ForbiddenError, " : ""}${
    search ? "isRefusal, " : ""
  }runInScope, userActor } from "@kit/kernel";
${specPreamble(context, aggregate, permission, name, "query")}${
    search
      ? `
Deno.test("${name} answers a page of the tenant's ${plural} by id, and their total", async () => {
  for (const id of ["s3", "s1", "s2"]) await seed(id);
  await runInScope(
    { execution: { origin: "test", actor: ofAnotherTenant, tenantId: "t2", correlationId: "spec" } },
    () => ${variable}s.add(${builderNames(aggregate).instance}("s0-of-t2")),
  );
  const first = await application.queries.execute(new ${name}(actor, 1, 2));
  assert.deepEqual(first.items.map((item) => item.id), ["s1", "s2"]);
  assert.equal(first.total, 3);
  const second = await application.queries.execute(new ${name}(actor, 2, 2));
  assert.deepEqual(second.items.map((item) => item.id), ["s3"]);
  const ofT2 = await application.queries.execute(new ${name}(ofAnotherTenant));
  assert.deepEqual(ofT2.items.map((item) => item.id), ["s0-of-t2"]);
});

Deno.test("${name} by a caller who names none of their tenants is refused (TENANT_REQUIRED)", async () => {
  const ofTwo = userActor("someone-of-two", { roles: ["granted"], tenants: ["t1", "t2"] });
  await assert.rejects(
    () => application.queries.execute(new ${name}(ofTwo)),
    (error) => isRefusal(error, "TENANT_REQUIRED"),
  );
});
`
      : `
const notFound = (error: unknown) => error instanceof ConceptError && error.kind === "not-found";

Deno.test("${name} answers the ${aggregate} of the id", async () => {
  await seed("g1");
  assert.equal((await application.queries.execute(new ${name}(actor, "g1"))).id, "g1");
});

Deno.test("${name} of another tenant's ${aggregate} is refused as not found", async () => {
  await seed("g2");
  await assert.rejects(() => application.queries.execute(new ${name}(ofAnotherTenant, "g2")), notFound);
});
`
  }${
    permission
      ? `
Deno.test("${name} is refused to an actor without ${permission}", async () => {
  await assert.rejects(
    () => application.queries.execute(new ${name}(userActor("someone-else", { tenants: ["t1"] })${
        search ? "" : ', "g1"'
      })),
    ForbiddenError,
  );
});
`
      : ""
  }`;
  return { message, handler, spec };
}

/** The code of an aggregate that is not found (`LOAN_NOT_FOUND`). */
function notFound(aggregate: string): string {
  return `${kebabOf(aggregate).toUpperCase().replaceAll("-", "_")}_NOT_FOUND`;
}
