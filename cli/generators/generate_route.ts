import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { errorCodesName, errorCodesPath } from "./generate_error_code.ts";
import { checkContext } from "./generate_simple.ts";
import { type Field, readMessageShape } from "./message_shape.ts";
import { replaceGeneratedParts } from "./generated_parts.ts";
import { updatedMessageSpec } from "./message_spec_update.ts";
import {
  controllerFile,
  functionRouteFile,
  functionRouteName,
  type Group,
  type RouteParts,
  specFile,
} from "./route_templates.ts";
import { didYouMean, messagesOf, orRun } from "./close_names.ts";

/** The registry of the project's function routes, which the platform's HTTP pipeline serves. */
export const functionRoutesPath = "src/platform/function-routes.ts";

/** The options of `kit generate route`. */
export interface RouteOptions {
  /** The route group it belongs to (default: the context's only one). */
  readonly group?: string;
  /**
   * Its path under the group's prefix (default: from the message, see `routePath`); with
   * `function` and no group, its whole path.
   */
  readonly path?: string;
  /**
   * A function route (`defineRoute`) registered in `src/platform/function-routes.ts` instead of a
   * controller: it states its own security (bearer), and no group's guards apply to it.
   */
  readonly function?: boolean;
  /**
   * Rewrites an existing route's parts that follow its message (`// kit:begin route …`: imports,
   * schemas, the message a request sends, the request, answer and codes it declares, and its
   * spec's request) from the message and its handler as they are now, and the part of the
   * message's own spec that makes the message (`// kit:begin message under test`); every other
   * line is kept.
   */
  readonly update?: boolean;
}

/**
 * Plans the HTTP route of a command or a query of a context: a controller in its route group
 * whose params, query and body schemas come from the message's inputs (inputs named `…Id` in the
 * path, a query's others in the query string, a command's others in the body), whose declared
 * codes are `FORBIDDEN` (a message with a permission) and the context's codes its handler
 * refuses with, whose `permissions` names the message (the operation's `x-permissions` lists its
 * `@Requires` permission), and whose answer is the message's result: 201 for a command whose
 * handler adds an aggregate, 202 for one that enqueues a job, 204 for one that answers nothing,
 * 200 otherwise. Plus a spec calling it over HTTP through the test application, its answers checked
 * against the OpenAPI document. With `function`: a `defineRoute` instead, in the platform's
 * registry of function routes (a shared file).
 */
export async function planRoute(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  options: RouteOptions,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "command or query name");
  checkRoutePath(options.path);
  const target = routeTarget(root, config, context, name, options);
  const { existing, base, messagePath } = target;
  const current = existing === undefined ? undefined : await readFile(join(root, existing), "utf8");
  const kept = current === undefined ? undefined : keptOf(current, existing!);
  const group = await groupOf(root, target, kept, options);
  const shape = readMessageShape(join(root, base, messagePath), name);
  const answer = await answerOf(root, target, shape);
  const { inPath, rest, path } = inputsAndPath(target, kept, shape, answer.creates, options.path);
  const parts: RouteParts = {
    context,
    kind: target.kind,
    shape,
    group,
    path,
    status: answer.status,
    inPath,
    rest,
    messageModule: `../../${messagePath}`,
    refusals: answer.refusals,
  };
  const contents = target.asFunction ? functionRouteFile(parts) : controllerFile(parts);
  if (current !== undefined) {
    return await planUpdatedRoute(root, config, target, current, contents, parts);
  }
  const writes: FileWrite[] = [
    { path: target.file, create: true, contents },
    { path: specPathOf(target.file), create: true, contents: specFile(parts) },
  ];
  if (target.asFunction) writes.push(await planRegistration(root, context, target.kebab, name));
  return await withDerived(root, config, writes);
}

/** The route a plan writes: its message, its file, and whether it exists already. */
interface RouteTarget {
  readonly context: string;
  readonly name: string;
  readonly kebab: string;
  /** `src/contexts/<context>`. */
  readonly base: string;
  readonly kind: "command" | "query";
  /** The message's module, from the context's folder. */
  readonly messagePath: string;
  /** The route's file when it exists already. */
  readonly existing: string | undefined;
  readonly file: string;
  readonly asFunction: boolean;
  /** The command that updates it. */
  readonly update: string;
}

/** The route of `name`, refused when it exists without `--update` or is a builder's controller. */
function routeTarget(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  options: RouteOptions,
): RouteTarget {
  const kebab = kebabOf(name);
  const base = `src/contexts/${context}`;
  const { kind, messagePath } = messageOf(root, context, name);
  const existing = ["controller", "route"]
    .map((suffix) => `${base}/presentation/http/${kebab}.${suffix}.ts`)
    .find((path) => existsSync(join(root, path)));
  const update = `kit generate route ${context} ${name} --update`;
  checkUpdate(existing, options, name, context, update);
  const asFunction = existing === undefined
    ? options.function === true
    : existing.endsWith(".route.ts");
  if (existing === undefined && !asFunction && config.declarations === "builder") {
    throw new CliError(
      `This project declares without decorators ("declarations": "builder" in kit.config.json), and a controller is declared only by @Controller (its compile-time rules are reported on the decorator): generate a function route, kit generate route ${context} ${name} --function --path </path>`,
    );
  }
  const file = existing ??
    `${base}/presentation/http/${kebab}.${asFunction ? "route" : "controller"}.ts`;
  return { context, name, kebab, base, kind, messagePath, existing, file, asFunction, update };
}

/** What an update keeps of an existing route. */
type Kept = { path: string; group: string | undefined };

/**
 * The route's group: the one an updated route keeps, none for a function route given its whole
 * path, else the one asked (or the context's only one).
 */
async function groupOf(
  root: string,
  { context, asFunction }: RouteTarget,
  kept: Kept | undefined,
  options: RouteOptions,
): Promise<Group | undefined> {
  if (kept !== undefined) {
    return kept.group === undefined ? undefined : await findGroup(root, context, kept.group, false);
  }
  return asFunction && options.group === undefined && options.path !== undefined
    ? undefined
    : await findGroup(root, context, options.group, asFunction);
}

/**
 * What the route answers, from the handler: 201 for a command whose handler adds an aggregate,
 * 202 for one that enqueues a job, 204 for one that answers nothing, 200 otherwise; and the codes
 * it refuses with.
 */
async function answerOf(
  root: string,
  { context, base, messagePath, kind }: RouteTarget,
  shape: RouteParts["shape"],
): Promise<{ creates: boolean; refusals: string[]; status: number }> {
  const handlerText = await readFile(
    join(root, base, messagePath.replace(/\.(command|query)\.ts$/, ".handler.ts")),
    "utf8",
  ).catch(() => "");
  const creates = kind === "command" && /\.add\(/.test(handlerText);
  const refusals = await refusalsOf(root, context, handlerText, creates);
  const status = kind === "query"
    ? 200
    : creates
    ? 201
    : /\.enqueue\(/.test(handlerText)
    ? 202
    : shape.result.kind === "void"
    ? 204
    : 200;
  return { creates, refusals, status };
}

/** The inputs read from the path, the others, and the path, checked against each other. */
function inputsAndPath(
  { kind, name, existing, update }: RouteTarget,
  kept: Kept | undefined,
  shape: RouteParts["shape"],
  creates: boolean,
  givenPath: string | undefined,
): { inPath: Field[]; rest: Field[]; path: string } {
  // An updated route keeps its path: the inputs it names are read from the path.
  const inPath = kept !== undefined
    ? shape.inputs.filter((input) => pathParams(kept.path).includes(input.name))
    : creates
    ? []
    : shape.inputs.filter(isPathInput);
  const rest = shape.inputs.filter((input) => !inPath.includes(input));
  const path = kept?.path ?? givenPath ?? routePath(kind, name, inPath, creates);
  if (kept !== undefined) checkKeptPath(existing!, path, inPath, name, update);
  checkPathInputs(path, inPath, name, givenPath !== undefined);
  return { inPath, rest, path };
}

function specPathOf(file: string): string {
  return file.replace(/\.ts$/, ".spec.ts");
}

/** --update: kit's parts of the route, its spec and its message's spec rewritten. */
async function planUpdatedRoute(
  root: string,
  config: KitConfig,
  { file, context, name, messagePath }: RouteTarget,
  current: string,
  contents: string,
  parts: RouteParts,
): Promise<FileWrite[]> {
  const spec = specPathOf(file);
  const remedy =
    `add the markers around what kit owns, or delete ${file} and ${spec} and run 'kit generate route ${context} ${name}' again (your edits in them are lost)`;
  const messageSpec = await updatedMessageSpec(root, context, messagePath, parts.shape);
  return await withDerived(root, config, [
    { path: file, contents: replaceGeneratedParts(current, contents, file, remedy) },
    await updatedSpec(root, spec, specFile(parts), remedy),
    ...(messageSpec === undefined ? [] : [messageSpec]),
  ]);
}

/** Refuses a `--path` that is not `/` or `/segments` of kebab-case or `:params`. */
function checkRoutePath(path: string | undefined): void {
  if (
    path !== undefined &&
    !/^\/([a-z0-9-]+|:[a-zA-Z][a-zA-Z0-9]*)?(\/([a-z0-9-]+|:[a-zA-Z][a-zA-Z0-9]*))*$/.test(path)
  ) {
    throw new CliError(
      `Invalid --path '${path}': / or /segments of kebab-case or :params, as /:loanId/approval`,
    );
  }
}

/**
 * The command or query `name` of the context, and its module's path from the context's folder;
 * refused, with the close names, when the context has neither.
 */
function messageOf(
  root: string,
  context: string,
  name: string,
): { kind: "command" | "query"; messagePath: string } {
  const kebab = kebabOf(name);
  const base = `src/contexts/${context}`;
  const command = `application/commands/${kebab}/${kebab}.command.ts`;
  const query = `application/queries/${kebab}/${kebab}.query.ts`;
  if (existsSync(join(root, base, command))) return { kind: "command", messagePath: command };
  if (existsSync(join(root, base, query))) return { kind: "query", messagePath: query };
  throw new CliError(
    `Context '${context}' has no command or query ${name}: ${
      orRun(
        didYouMean(name, [
          ...messagesOf(root, context, "command"),
          ...messagesOf(root, context, "query"),
        ]),
      )
    }'kit generate command ${context} ${name}' (or query) first`,
  );
}

/**
 * Refuses a route that exists already without `--update`, an `--update` of none, and an
 * `--update` given a group, path or kind (it keeps the file's).
 */
function checkUpdate(
  existing: string | undefined,
  options: RouteOptions,
  name: string,
  context: string,
  update: string,
): void {
  if (existing !== undefined && !options.update) {
    throw new CliError(
      `The route of ${name} exists already: ${existing}. To rewrite its schemas, request, answer and codes from ${name} and its handler as they are now, keeping your edits outside its '// kit:begin route …' parts: ${update}`,
    );
  }
  if (!options.update) return;
  if (existing === undefined) {
    throw new CliError(
      `${name} has no route to update: 'kit generate route ${context} ${name}' (without --update) writes it`,
    );
  }
  const given = (["group", "path", "function"] as const).find((o) => options[o] !== undefined);
  if (given !== undefined) {
    throw new CliError(
      `--update keeps the route's group, path and kind as ${existing} has them: drop --${given} (edit them in the file)`,
    );
  }
}

/**
 * The codes of the context's errors the handler throws, sorted; for a handler that creates through
 * a repository, its `<AGGREGATE>_EXISTS` too (an id its tenant keeps already) when declared.
 */
async function refusalsOf(
  root: string,
  context: string,
  handlerText: string,
  creates: boolean,
): Promise<string[]> {
  const errors = errorCodesName(context);
  const refusals = [
    ...new Set([...handlerText.matchAll(new RegExp(`\\b${errors}\\.([A-Z][A-Z0-9_]*)\\b`, "g"))]
      .map((match) => match[1]!)),
  ].sort();
  const created = creates
    ? /ports\/([a-z0-9-]+)-repository\.ts"/.exec(handlerText)?.[1]
    : undefined;
  const existsCode = created && `${created.toUpperCase().replaceAll("-", "_")}_EXISTS`;
  if (
    existsCode && !refusals.includes(existsCode) &&
    new RegExp(`^\\s*${existsCode}:`, "m").test(
      await readFile(join(root, errorCodesPath(context)), "utf8").catch(() => ""),
    )
  ) {
    refusals.push(existsCode);
    refusals.sort();
  }
  return refusals;
}

/** Refuses an updated route whose path names a `:param` that is no longer an input. */
function checkKeptPath(
  existing: string,
  path: string,
  inPath: readonly { readonly name: string }[],
  name: string,
  update: string,
): void {
  const gone = pathParams(path).find((param) => !inPath.some((input) => input.name === param));
  if (gone !== undefined) {
    throw new CliError(
      `${existing} has the path '${path}', whose :${gone} is no longer an input of ${name}: change its path by hand (or delete the route and its spec and generate it again), then run ${update}`,
    );
  }
}

/**
 * Refuses a path given (`--path`) that lacks an input naming what the message acts on, and any
 * path naming a `:param` that is none of those inputs.
 */
function checkPathInputs(
  path: string,
  inPath: readonly { readonly name: string }[],
  name: string,
  given: boolean,
): void {
  const declared = pathParams(path);
  const missing = inPath.filter((input) => !declared.includes(input.name));
  if (given && missing.length > 0) {
    throw new CliError(
      `--path '${path}' lacks :${missing[0]!.name}, an input of ${name} that names what it acts on`,
    );
  }
  const unknown = declared.find((param) => !inPath.some((input) => input.name === param));
  if (unknown !== undefined) {
    throw new CliError(
      `--path '${path}' names :${unknown}, which is no input of ${name} that names what it acts on (${
        inPath.map((input) => input.name).join(", ") || "it has none"
      })`,
    );
  }
}

/** --update of the spec: kit's parts rewritten, the user's lines kept; written whole if gone. */
async function updatedSpec(
  root: string,
  spec: string,
  contents: string,
  remedy: string,
): Promise<FileWrite> {
  if (!existsSync(join(root, spec))) return { path: spec, create: true, contents };
  const current = await readFile(join(root, spec), "utf8");
  return { path: spec, contents: replaceGeneratedParts(current, contents, spec, remedy) };
}

/** Adds a function route to the platform's registry, refusing a project whose platform has none. */
async function planRegistration(
  root: string,
  context: string,
  kebab: string,
  name: string,
): Promise<FileWrite> {
  const compose = await readFile(join(root, "src/platform/compose-application.ts"), "utf8");
  if (!existsSync(join(root, functionRoutesPath)) || !/\bfunctionRoutes\b/.test(compose)) {
    throw new CliError(
      `This project's platform registers no function routes (${functionRoutesPath}, served by compose-application.ts as \`routes: functionRoutes\`, as kit init now writes them): add them, or generate a controller (without --function)`,
    );
  }
  const text = await readFile(join(root, functionRoutesPath), "utf8");
  const route = functionRouteName(name);
  const imports = readRegion(text, "function-route-imports", functionRoutesPath);
  const routes = readRegion(text, "function-routes", functionRoutesPath);
  const withImport = updateRegion(text, "function-route-imports", [
    ...imports,
    `import { ${route} } from "../contexts/${context}/presentation/http/${kebab}.route.ts";`,
  ], functionRoutesPath);
  return {
    path: functionRoutesPath,
    contents: updateRegion(
      withImport,
      "function-routes",
      [...routes, `${route},`],
      functionRoutesPath,
    ),
  };
}

/**
 * What an update keeps of an existing route: its path (a controller's under its group, a function
 * route's whole) and a controller's group.
 */
function keptOf(text: string, file: string): { path: string; group: string | undefined } {
  const path = /^\s*path: "([^"]*)",$/m.exec(text)?.[1];
  const group = /^\s*group: (\w+),$/m.exec(text)?.[1];
  if (path === undefined || (file.endsWith(".controller.ts") && group === undefined)) {
    throw new CliError(
      `${file} states no \`path: "…",\`${
        file.endsWith(".controller.ts") ? " or `group: …,`" : ""
      } line kit can read: it cannot update this route`,
    );
  }
  return { path, group };
}

/** An input that names what a message acts on (`loanId`): a path parameter. */
function isPathInput(input: Field): boolean {
  return /Id$/.test(input.name) && input.shape.kind === "string" && !input.optional;
}

/** The `:params` of a path. */
function pathParams(path: string): string[] {
  return [...path.matchAll(/:([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => match[1]!);
}

/**
 * A route's path under its group's prefix: `/` for a command that creates, a query's ids as
 * `/:id` segments, a command's ids followed by what it does (`ApproveLoan` on `loanId`:
 * `/:loanId/approve`).
 */
export function routePath(
  kind: "command" | "query",
  name: string,
  inPath: readonly Field[],
  creates: boolean,
): string {
  if (creates) return "/";
  const ids = inPath.map((input) => `/:${input.name}`).join("");
  if (kind === "query") return ids === "" ? "/" : ids;
  const named = new Set(
    inPath.flatMap((input) => kebabOf(input.name.replace(/Id$/, "")).split("-")),
  );
  const words = kebabOf(name).split("-");
  const action = words.filter((word) => !named.has(word)).join("-") || words.join("-");
  return `${ids}/${action}`;
}

async function findGroup(
  root: string,
  context: string,
  asked: string | undefined,
  asFunction: boolean,
): Promise<Group> {
  const dir = join(root, `src/contexts/${context}/presentation/http`);
  const files = existsSync(dir)
    ? (await readdir(dir)).filter((file) => file.endsWith(".routes.ts")).sort()
    : [];
  const groups: Group[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), "utf8");
    const name = /@RouteGroup\([\s\S]*?\)\s*export class (\w+)/.exec(text)?.[1];
    const prefix = /prefix:\s*"([^"]*)"/.exec(text)?.[1];
    if (name !== undefined && prefix !== undefined) {
      groups.push({ name, module: `./${file}`, prefix });
    }
  }
  if (asked !== undefined) {
    const found = groups.find((group) => group.name === asked);
    if (found === undefined) {
      throw new CliError(
        `Context '${context}' has no route group ${asked}: its groups are ${
          groups.map((g) => g.name).join(", ") || "none"
        }`,
      );
    }
    return found;
  }
  if (groups.length === 1) return groups[0]!;
  throw new CliError(
    groups.length === 0
      ? `Context '${context}' has no route group: run 'kit generate route-group ${context} <Name>Routes' first${
        asFunction ? ", or give the function route its whole path with --path" : ""
      }`
      : `Context '${context}' has ${groups.length} route groups (${
        groups.map((g) => g.name).join(", ")
      }): name one with --group`,
  );
}
