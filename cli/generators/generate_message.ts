import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { planRepository, planRepositoryRegistration } from "./generate_repository.ts";

/** The options of a command or query generator. */
export interface MessageOptions {
  /** The permission the message requires (`<element>.<verb>`). */
  readonly permission?: string;
  /** A search-style query: paging in, `{ items, total }` out. */
  readonly search?: boolean;
  /** A command on this aggregate: the handler loads and saves it through its repository. */
  readonly aggregate?: string;
}

/**
 * Plans a command or a query: the message, its handler, its spec, the permission in the
 * context's permissions, and the context's derived files.
 */
export async function planMessage(
  root: string,
  config: KitConfig,
  kind: "command" | "query",
  context: string,
  name: string,
  options: MessageOptions,
): Promise<FileWrite[]> {
  if (!config.contexts.some((c) => c.name === context)) {
    throw new CliError(
      `Unknown context '${context}': the contexts are ${
        config.contexts.map((c) => c.name).join(", ") || "none"
      }`,
    );
  }
  checkPascal(name, `${kind} name`);
  const permission = options.permission;
  if (permission !== undefined && !/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(permission)) {
    throw new CliError(
      `Invalid --permission '${permission}': use '<element>.<verb>' (appointment.cancel)`,
    );
  }
  if (options.search && kind !== "query") throw new CliError("--search applies to queries only");
  const aggregate = options.aggregate;
  if (aggregate !== undefined) {
    if (kind !== "command") throw new CliError("--aggregate applies to commands only");
    checkPascal(aggregate, "aggregate name");
    if (!existsSync(join(root, `src/contexts/${context}/domain/${kebabOf(aggregate)}.ts`))) {
      throw new CliError(
        `Aggregate '${aggregate}' does not exist in context '${context}': run 'kit generate aggregate ${context} ${aggregate}' first`,
      );
    }
  }
  const kebab = kebabOf(name);
  const dir = `src/contexts/${context}/application/${
    kind === "command" ? "commands" : "queries"
  }/${kebab}`;
  if (existsSync(join(root, dir))) {
    throw new CliError(
      `${
        kind === "command" ? "Command" : "Query"
      } '${name}' exists already in context '${context}'`,
    );
  }
  const writes: FileWrite[] = [];
  if (aggregate !== undefined) {
    writes.push(...await planAggregateRepository(root, config, context, aggregate));
  }
  if (permission !== undefined) writes.push(...await planPermission(root, context, permission));
  const template = aggregate === undefined
    ? templates(kind, context, name, kebab, permission, options.search === true)
    : aggregateTemplates(context, name, kebab, permission, aggregate);
  writes.push(
    { path: `${dir}/${kebab}.${kind}.ts`, contents: template.message, create: true },
    { path: `${dir}/${kebab}.handler.ts`, contents: template.handler, create: true },
    { path: `${dir}/${kebab}.spec.ts`, contents: template.spec, create: true },
  );
  return await withDerived(root, config, writes);
}

const derivedFile = /(\.declarations\.ts|\.dependencies\.ts|CONTEXT\.md|context-map\.md)$/;

/**
 * The aggregate's repository when it has none yet (its own writes, not the derived files, its
 * registration with the platform included), or else its registration (idempotent).
 */
async function planAggregateRepository(
  root: string,
  config: KitConfig,
  context: string,
  aggregate: string,
): Promise<FileWrite[]> {
  const kebab = kebabOf(aggregate);
  const writes: FileWrite[] = [];
  if (!existsSync(join(root, `src/contexts/${context}/application/ports/${kebab}-repository.ts`))) {
    writes.push(
      ...(await planRepository(root, config, context, aggregate)).filter((w) =>
        !derivedFile.test(w.path)
      ),
    );
  }
  if (writes.length === 0) writes.push(await planRepositoryRegistration(root, context, aggregate));
  return writes;
}

/** Plans the permission in the context's permissions file, unless it is there already. */
export async function planPermission(
  root: string,
  context: string,
  permission: string,
): Promise<FileWrite[]> {
  const path = `src/contexts/${context}/${context}.permissions.ts`;
  const text = await readFile(join(root, path), "utf8");
  const existing = readRegion(text, "permissions", path);
  if (existing.some((line) => line.startsWith(`"${permission}"`))) return [];
  const verb = permission.split(".").reverse().join(" ");
  return [{
    path,
    contents: updateRegion(text, "permissions", [
      ...existing,
      `"${permission}": { description: "TODO(domain): who may ${verb}" },`,
    ], path),
  }];
}

function templates(
  kind: "command" | "query",
  context: string,
  name: string,
  kebab: string,
  permission: string | undefined,
  search: boolean,
): { message: string; handler: string; spec: string } {
  const camel = camelOf(context);
  const base = kind === "command" ? "Command" : "Query";
  const result = kind === "command" ? "void" : `${name}Result`;
  const resultType = kind === "command"
    ? ""
    : search
    ? `/** One page of ${name}. */\nexport interface ${name}Result {\n  readonly items: readonly { readonly id: string }[];\n  readonly total: number;\n}\n\n`
    : `/** What ${name} answers. */\nexport interface ${name}Result {\n  readonly id: string;\n}\n\n`;
  const fields = search ? ", readonly page = 1, readonly pageSize = 20" : "";
  const requires = permission === undefined
    ? ""
    : `@Requires(${camel}Permissions["${permission}"])\n`;
  const message = `import { type Actor, ${
    permission ? `Authorized${base}, Requires` : base
  } } from "@kit/kernel";
${permission ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n` : ""}
${resultType}/** ${name}: what the actor asks of the ${context} context${
    permission ? `; needs '${permission}'` : ""
  }. */
${requires}export class ${name} extends ${permission ? `Authorized${base}` : base}<${result}> {
  constructor(actor: Actor${fields}) {
    super(actor);
  }
}
`;
  const answer = kind === "command"
    ? "return Promise.resolve();"
    : search
    ? "return Promise.resolve({ items: [], total: 0 });"
    : 'return Promise.resolve({ id: "TODO(domain)" });';
  const handler = `import { Handles } from "@kit/kernel";
import { ${name}${kind === "query" ? `, type ${name}Result` : ""} } from "./${kebab}.${kind}.ts";

/** Runs ${name}. */
@Handles(${name})
export class ${name}Handler {
  handle(_${kind}: ${name}): Promise<${result}> {
    // TODO(domain): ${
    kind === "command" ? "load the aggregate, let it decide, save it" : "read what the query asks"
  }.
    ${answer}
  }
}
`;
  const bus = kind === "command" ? "commands" : "queries";
  const spec = `import assert from "node:assert/strict";
import { ForbiddenError, userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { ${camel}Module } from "../../../${context}.module.ts";
${
    permission
      ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n`
      : ""
  }import { ${name} } from "./${kebab}.${kind}.ts";

const application = testApplication([${camel}Module], {
  grants: { granted: [${permission ? `${camel}Permissions["${permission}"]` : ""}] },
});

Deno.test("${name} runs through the ${kind === "command" ? "command" : "query"} bus", async () => {
  const answer = await application.${bus}.execute(new ${name}(userActor("someone", { roles: ["granted"] })));
  assert.ok(${kind === "command" ? "answer === undefined" : "answer !== undefined"});
});
${
    permission
      ? `
Deno.test("${name} is refused to an actor without ${permission}", async () => {
  await assert.rejects(() => application.${bus}.execute(new ${name}(userActor("someone-else"))), ForbiddenError);
});
`
      : `
Deno.test("${name} needs no permission", () => {
  assert.ok(ForbiddenError);
});
`
  }`;
  return { message, handler, spec };
}

function aggregateTemplates(
  context: string,
  name: string,
  kebab: string,
  permission: string | undefined,
  aggregate: string,
): { message: string; handler: string; spec: string } {
  const camel = camelOf(context);
  const aggregateKebab = kebabOf(aggregate);
  const id = `${camelOf(aggregateKebab)}Id`;
  const variable = camelOf(aggregateKebab);
  const repository = `${aggregate}Repository`;
  const base = permission ? "AuthorizedCommand" : "Command";
  const message = `import { type Actor, ${
    permission ? `${base}, Requires` : base
  } } from "@kit/kernel";
${permission ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n` : ""}
/** ${name}: what the actor asks of a ${aggregate}${permission ? `; needs '${permission}'` : ""}. */
${
    permission
      ? `@Requires(${camel}Permissions["${permission}"])\n`
      : ""
  }export class ${name} extends ${base}<void> {
  constructor(actor: Actor, readonly ${id}: string) {
    super(actor);
  }
}
`;
  const handler = `import { ConceptError, Handles } from "@kit/kernel";
import { ${repository} } from "../../ports/${aggregateKebab}-repository.ts";
import { ${name} } from "./${kebab}.command.ts";

/** Runs ${name}: loads the ${aggregate}, lets it decide, saves it. */
@Handles(${name})
export class ${name}Handler {
  constructor(private readonly ${variable}s: ${repository}) {}

  async handle(command: ${name}): Promise<void> {
    const ${variable} = await this.${variable}s.get(command.${id});
    if (${variable} === undefined) {
      throw ConceptError.notFound("${
    aggregateKebab.toUpperCase().replaceAll("-", "_")
  }_NOT_FOUND", \`No ${aggregate} \${command.${id}}\`);
    }
    // TODO(domain): let the ${aggregate} decide.
    await this.${variable}s.save(${variable});
  }
}
`;
  const spec = `import assert from "node:assert/strict";
import { ConceptError, ForbiddenError, userActor } from "@kit/kernel";
import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { ${camel}Module } from "../../../${context}.module.ts";
${
    permission
      ? `import { ${camel}Permissions } from "../../../${context}.permissions.ts";\n`
      : ""
  }import { ${aggregate} } from "../../../domain/${aggregateKebab}.ts";
import { ${repository} } from "../../ports/${aggregateKebab}-repository.ts";
import { InMemory${repository} } from "../../../infrastructure/${aggregateKebab}.memory-repository.ts";
import { ${name} } from "./${kebab}.command.ts";

const ${variable}s = new InMemory${repository}();
const application = testApplication([${camel}Module], {
  grants: { granted: [${permission ? `${camel}Permissions["${permission}"]` : ""}] },
  providers: [{ provide: ${repository}, provider: { useValue: ${variable}s } }],
});
const actor = userActor("someone", { roles: ["granted"] });

Deno.test("${name} loads the ${aggregate} and saves it through its repository", async () => {
  await ${variable}s.save(${aggregate}.create("x1"));
  await application.commands.execute(new ${name}(actor, "x1"));
  assert.equal((await ${variable}s.get("x1"))?.id, "x1");
});

Deno.test("${name} of an unknown ${aggregate} is refused as not found", async () => {
  await assert.rejects(
    () => application.commands.execute(new ${name}(actor, "missing")),
    (error) => error instanceof ConceptError && error.kind === "not-found",
  );
});
${
    permission
      ? `
Deno.test("${name} is refused to an actor without ${permission}", async () => {
  await assert.rejects(() => application.commands.execute(new ${name}(userActor("someone-else"), "x1")), ForbiddenError);
});
`
      : `
Deno.test("${name} needs no permission", () => {
  assert.ok(ForbiddenError);
});
`
  }`;
  return { message, handler, spec };
}
