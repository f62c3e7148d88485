import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import {
  aOrAn,
  camelOf,
  checkKebab,
  checkPascal,
  kebabOf,
  type KitConfig,
} from "../project/kit_config.ts";
import { planGrant } from "./grants.ts";
import {
  aggregateQueryTemplates,
  creatingTemplates,
  idField,
  loadingHandlerTokens,
  type MessageFiles,
  notFoundCode,
  pageInputs,
  permissionTokens,
  specPreamble,
} from "./aggregate_message_templates.ts";
import { planRepository, planRepositoryRegistration } from "./generate_repository.ts";
import { builderNames, planBuilder } from "./aggregate_builder.ts";
import { mergeWrites, planErrorCodeDeclaration } from "./generate_error_code.ts";
import { aggregatesOf, didYouMean, orRun } from "./close_names.ts";
import { checkContext } from "./generate_simple.ts";
import { withCollaborators } from "./handler_collaborators.ts";
import { generatorTemplate } from "../templates/project_template.ts";
import { builderRequirement, builderWrites, inBuilderStyle, optionsOf } from "./builder_style.ts";
import { messageMaker, messageUnderTest } from "./message_maker.ts";

/** The options of a command or query generator. */
export interface MessageOptions {
  /** The permission the message requires (`<element>.<verb>`). */
  readonly permission?: string;
  /** A search-style query: paging in, `{ items, total }` out. */
  readonly search?: boolean;
  /**
   * A message on this aggregate, through its repository: a command loads and saves it (adds a new
   * one, with `creates`); a query finds one by id (a page of them, with `search`).
   */
  readonly aggregate?: string;
  /** A command that creates the aggregate: the handler adds a new one and answers its id. */
  readonly creates?: boolean;
  /** A role the permission is granted to, in the platform's grants (a shared file). */
  readonly grant?: string;
  /** A background job of the context the command's handler enqueues (`JobQueue` injected). */
  readonly enqueues?: string;
  /** An event of the context's published language its handler publishes (`EventPublisher`). */
  readonly publishes?: string;
}

/**
 * Plans a command or a query: the message, its handler (`@Handles`, or in the builder style no
 * decorator and `builder.handler(..)` in the module file), its spec, the permission in the
 * context's permissions (required by `@Requires` on the message, or in the builder style by
 * `builder.requires(..)` in the module file), and the context's derived files.
 */
export async function planMessage(
  root: string,
  config: KitConfig,
  kind: "command" | "query",
  context: string,
  name: string,
  options: MessageOptions,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, `${kind} name`);
  checkMessageOptions(kind, options);
  const aggregate = options.aggregate;
  if (aggregate !== undefined) await checkAggregate(root, context, aggregate, options);
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
  const writes = await sharedWrites(root, config, context, kind, options);
  const template = await templatesOf(root, kind, context, name, options);
  const message: MessageNames = { kind, context, name, kebab, dir };
  writes.push(...await messageFiles(root, config, message, template, options));
  return await withDerived(root, config, writes);
}

/** The names a message's files use. */
interface MessageNames {
  readonly kind: "command" | "query";
  readonly context: string;
  readonly name: string;
  readonly kebab: string;
  /** The message's folder. */
  readonly dir: string;
}

/**
 * What the message needs outside its folder: its aggregate's repository, builder and code, its
 * permission in the context's permissions, and the permission's grant.
 */
async function sharedWrites(
  root: string,
  config: KitConfig,
  context: string,
  kind: "command" | "query",
  options: MessageOptions,
): Promise<FileWrite[]> {
  const { aggregate, permission } = options;
  const writes: FileWrite[] = aggregate === undefined
    ? []
    : await aggregateWrites(root, config, context, kind, aggregate, options);
  if (permission !== undefined) writes.push(...await planPermission(root, context, permission));
  if (options.grant !== undefined) {
    writes.push(await planGrant(root, context, options.grant, permission!));
  }
  return writes;
}

/**
 * The message, its handler and its spec; in the builder style, the handler without `@Handles`
 * and the permission without `@Requires`, both declared in the module file.
 */
async function messageFiles(
  root: string,
  config: KitConfig,
  { kind, context, name, kebab, dir }: MessageNames,
  template: MessageFiles,
  options: MessageOptions,
): Promise<FileWrite[]> {
  // What the handler enqueues and publishes, given the command's inputs by name.
  const handler = withCollaborators(
    root,
    context,
    template.handler,
    [...template.message.matchAll(/readonly (\w+)\??: /g)].map((m) => m[1]!),
    {
      ...(options.enqueues === undefined ? {} : { enqueues: options.enqueues }),
      ...(options.publishes === undefined ? {} : { publishes: options.publishes }),
    },
  );
  const handlerWrite: FileWrite = {
    path: `${dir}/${kebab}.handler.ts`,
    contents: handler,
    create: true,
  };
  const declared = inBuilderStyle(config)
    ? await handlerDeclaration(root, { kind, context, name, kebab, dir }, handlerWrite)
    : undefined;
  const messageWrite: FileWrite = {
    path: `${dir}/${kebab}.${kind}.ts`,
    contents: template.message,
    create: true,
  };
  const required = declared !== undefined && options.permission !== undefined
    ? builderRequirement(
      { path: messageWrite.path, text: template.message, className: name },
      declared.module,
    )
    : undefined;
  return [
    required?.file ?? messageWrite,
    ...(declared === undefined
      ? [handlerWrite]
      : [declared.file, required?.module ?? declared.module]),
    { path: `${dir}/${kebab}.spec.ts`, contents: template.spec, create: true },
  ];
}

/** The builder style: the handler without `@Handles`, `builder.handler(..)` in the module file. */
async function handlerDeclaration(
  root: string,
  { kind, context, name, kebab, dir }: MessageNames,
  handler: FileWrite,
): Promise<{ file: FileWrite; module: FileWrite }> {
  return await builderWrites(root, context, {
    path: handler.path,
    text: handler.contents,
    className: `${name}Handler`,
    decorator: "Handles",
    from: "@kit/kernel",
    imports: [
      `import { ${name} } from "./application/${
        dir.split("/application/")[1]
      }/${kebab}.${kind}.ts";`,
    ],
    call: (builder, deps) =>
      `${builder}.handler(${name}, ${name}Handler${deps === "" ? "" : `, ${optionsOf(deps)}`});`,
  });
}

/** Refuses options that do not go together or are malformed, naming the option. */
function checkMessageOptions(kind: "command" | "query", options: MessageOptions): void {
  const permission = options.permission;
  if (permission !== undefined && !/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(permission)) {
    throw new CliError(
      `Invalid --permission '${permission}': use '<element>.<verb>' (appointment.cancel)`,
    );
  }
  if (options.search && kind !== "query") throw new CliError("--search applies to queries only");
  for (const option of ["enqueues", "publishes"] as const) {
    if (options[option] === undefined) continue;
    if (kind !== "command") {
      throw new CliError(`--${option} applies to commands only: a query changes nothing`);
    }
    checkPascal(options[option], option === "enqueues" ? "job name" : "event name");
  }
  if (options.creates && (kind !== "command" || options.aggregate === undefined)) {
    throw new CliError("--creates applies to commands with --aggregate <Aggregate> only");
  }
  if (options.grant !== undefined) {
    if (permission === undefined) throw new CliError("--grant <role> needs --permission <name>");
    checkKebab(options.grant, "role");
  }
}

/**
 * Refuses an aggregate the context does not have (naming the close ones), and a search on one
 * whose repository cannot list a page.
 */
async function checkAggregate(
  root: string,
  context: string,
  aggregate: string,
  options: MessageOptions,
): Promise<void> {
  checkPascal(aggregate, "aggregate name");
  if (!existsSync(join(root, `src/contexts/${context}/domain/${kebabOf(aggregate)}.ts`))) {
    throw new CliError(
      `Aggregate '${aggregate}' does not exist in context '${context}': ${
        orRun(didYouMean(aggregate, aggregatesOf(root, context)))
      }'kit generate aggregate ${context} ${aggregate}' first`,
    );
  }
  if (!options.search) return;
  const port = join(
    root,
    `src/contexts/${context}/application/ports/${kebabOf(aggregate)}-repository.ts`,
  );
  if (
    existsSync(port) &&
    !/\blist\(page: number, pageSize: number\)/.test(await readFile(port, "utf8"))
  ) {
    throw new CliError(
      `${aggregate}Repository has no list(page, pageSize), which a search on it needs: add it to the port and its adapters (as 'kit generate repository' now writes it)`,
    );
  }
}

/**
 * What a message on an aggregate needs besides its own files: the aggregate's repository and test
 * builder when it has none yet, and its `<AGGREGATE>_NOT_FOUND` code when the message finds one.
 */
async function aggregateWrites(
  root: string,
  config: KitConfig,
  context: string,
  kind: "command" | "query",
  aggregate: string,
  options: MessageOptions,
): Promise<FileWrite[]> {
  const writes = await planAggregateRepository(root, config, context, aggregate);
  // Its spec makes the aggregates it needs through the aggregate's test builder.
  const builder = await planBuilder(root, context, aggregate);
  writes.push(...builder.filter((b) => !writes.some((w) => w.path === b.path)));
  const findsOne = kind === "command" ? !options.creates : !options.search;
  if (!findsOne) return writes;
  const declared = await planErrorCodeDeclaration(root, context, {
    code: notFoundCode(aggregate),
    status: 404,
    description: `No ${aggregate} of this id in the tenant`,
  }, writes);
  return mergeWrites(writes, declared);
}

/** The message's, handler's and spec's text, by the kind of message and its aggregate. */
async function templatesOf(
  root: string,
  kind: "command" | "query",
  context: string,
  name: string,
  options: MessageOptions,
): Promise<MessageFiles> {
  const { aggregate, permission } = options;
  const kebab = kebabOf(name);
  const search = options.search === true;
  if (aggregate === undefined) return templates(kind, context, name, kebab, permission, search);
  if (kind === "query") {
    return aggregateQueryTemplates(context, name, kebab, permission, aggregate, search);
  }
  if (!options.creates) return aggregateTemplates(context, name, kebab, permission, aggregate);
  // The factory as the code has it now: the command takes what it takes.
  const factory = (await import("./message_shape.ts")).readAggregateFactory(
    join(root, `src/contexts/${context}/domain/${kebabOf(aggregate)}.ts`),
    aggregate,
  );
  return creatingTemplates(context, name, kebab, permission, aggregate, factory);
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
  const plain: PlainMessage = { kind, context, name, kebab, permission, search };
  return { message: plainMessage(plain), handler: plainHandler(plain), spec: plainSpec(plain) };
}

/** A command or query on no aggregate. */
interface PlainMessage {
  readonly kind: "command" | "query";
  readonly context: string;
  readonly name: string;
  readonly kebab: string;
  readonly permission: string | undefined;
  /** A search-style query: paging in, `{ items, total }` out. */
  readonly search: boolean;
}

function resultOf({ kind, name }: PlainMessage): string {
  return kind === "command" ? "void" : `${name}Result`;
}

function plainMessage(plain: PlainMessage): string {
  const { kind, context, name, permission, search } = plain;
  const camel = camelOf(context);
  const base = kind === "command" ? "Command" : "Query";
  const resultType = kind === "command"
    ? ""
    : search
    ? `/** One page of ${name}. */\nexport interface ${name}Result {\n  readonly items: readonly { readonly id: string }[];\n  readonly total: number;\n}\n\n`
    : `/** What ${name} answers. */\nexport interface ${name}Result {\n  readonly id: string;\n}\n\n`;
  const fields = search ? ", readonly page = 1, readonly pageSize = 20" : "";
  return generatorTemplate("command/command.ts", {
    ...permissionTokens(camel, context, permission, permission ? `Authorized${base}` : base),
    resultType,
    name,
    context,
    baseClass: permission ? `Authorized${base}` : base,
    result: resultOf(plain),
    fields,
  });
}

function plainHandler(plain: PlainMessage): string {
  const { kind, name, kebab, search } = plain;
  const answer = kind === "command"
    ? "return Promise.resolve();"
    : search
    ? "return Promise.resolve({ items: [], total: 0 });"
    : 'return Promise.resolve({ id: "TODO(domain)" });';
  return generatorTemplate("command/handler.ts", {
    name,
    resultImport: kind === "query" ? `, type ${name}Result` : "",
    kebab,
    kind,
    result: resultOf(plain),
    todo: kind === "command"
      ? "load the aggregate, let it decide, save it at the version it loaded"
      : "read what the query asks, of the tenants the work reaches only (readableTenants())",
    answer,
  });
}

function plainSpec({ kind, context, name, kebab, permission, search }: PlainMessage): string {
  const camel = camelOf(context);
  const base = kind === "command" ? "Command" : "Query";
  const bus = kind === "command" ? "commands" : "queries";
  const answerCheck = kind === "command" ? "answer === undefined" : "answer !== undefined";
  return generatorTemplate("command/spec.ts", {
    forbiddenImport: permission ? "ForbiddenError, " : "",
    camel,
    context,
    permissionsImport: permissionTokens(camel, context, permission, base).permissionsImport,
    messageUnderTest: search
      ? messageUnderTest(`${kind} ${context}`, name, pageInputs, { kind: "page" })
      : messageUnderTest(`${kind} ${context}`, name, [], { kind: "plain" }),
    new: messageMaker(name),
    name,
    kebab,
    kind,
    granted: permission ? `${camel}Permissions["${permission}"]` : "",
    busName: kind === "command" ? "command" : "query",
    bus,
    answerCheck,
    permissionTest: permission
      ? generatorTemplate("command/refused.spec.part.ts", {
        new: messageMaker(name),
        name,
        permission,
        bus,
      })
      : generatorTemplate("command/unguarded.spec.part.ts", {
        new: messageMaker(name),
        name,
        bus,
        answerCheck,
      }),
  });
}

function aggregateTemplates(
  context: string,
  name: string,
  kebab: string,
  permission: string | undefined,
  aggregate: string,
): { message: string; handler: string; spec: string } {
  const camel = camelOf(context);
  const id = `${camelOf(kebabOf(aggregate))}Id`;
  const base = permission ? "AuthorizedCommand" : "Command";
  const message = generatorTemplate("aggregate-command/command.ts", {
    ...permissionTokens(camel, context, permission, base),
    name,
    one: aOrAn(aggregate),
    aggregate,
    base,
    id,
  });
  const handler = generatorTemplate(
    "aggregate-command/handler.ts",
    loadingHandlerTokens(context, name, kebab, aggregate),
  );
  return { message, handler, spec: aggregateSpec(context, name, permission, aggregate, id) };
}

/** The spec of a command loading and saving an aggregate. */
function aggregateSpec(
  context: string,
  name: string,
  permission: string | undefined,
  aggregate: string,
  id: string,
): string {
  const camel = camelOf(context);
  const grants = `{ granted: [${permission ? `${camel}Permissions["${permission}"]` : ""}] }`;
  return generatorTemplate("aggregate-command/spec.ts", {
    forbiddenImport: permission ? "ForbiddenError,\n  " : "",
    preamble: specPreamble(context, aggregate, permission, name, "command", { withType: true }),
    messageUnderTest: messageUnderTest(`command ${context}`, name, [idField(id)], {
      kind: "on",
      aggregate,
    }),
    new: messageMaker(name),
    aggregate,
    variable: camelOf(kebabOf(aggregate)),
    name,
    repository: `${aggregate}Repository`,
    camel,
    grants,
    build: builderNames(aggregate).instance,
    permissionTest: permission
      ? generatorTemplate("aggregate-command/refused.spec.part.ts", {
        new: messageMaker(name),
        name,
        permission,
      })
      : generatorTemplate("aggregate-command/unguarded.spec.part.ts", {
        new: messageMaker(name),
        name,
      }),
  });
}
