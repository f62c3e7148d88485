import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { errorCodesName } from "./generate_error_code.ts";
import { checkContext } from "./generate_simple.ts";
import { type Field, readMessageShape } from "./message_shape.ts";
import {
  controllerFile,
  functionRouteFile,
  functionRouteName,
  type Group,
  type RouteParts,
  specFile,
} from "./route_templates.ts";

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
  if (
    options.path !== undefined &&
    !/^\/([a-z0-9-]+|:[a-zA-Z][a-zA-Z0-9]*)?(\/([a-z0-9-]+|:[a-zA-Z][a-zA-Z0-9]*))*$/.test(
      options.path,
    )
  ) {
    throw new CliError(
      `Invalid --path '${options.path}': / or /segments of kebab-case or :params, as /:loanId/approval`,
    );
  }
  const kebab = kebabOf(name);
  const base = `src/contexts/${context}`;
  const command = `application/commands/${kebab}/${kebab}.command.ts`;
  const query = `application/queries/${kebab}/${kebab}.query.ts`;
  const kind = existsSync(join(root, base, command))
    ? "command"
    : existsSync(join(root, base, query))
    ? "query"
    : undefined;
  if (kind === undefined) {
    throw new CliError(
      `Context '${context}' has no command or query ${name}: run 'kit generate command ${context} ${name}' (or query) first`,
    );
  }
  const file = `${base}/presentation/http/${kebab}.${options.function ? "route" : "controller"}.ts`;
  for (const existing of ["controller", "route"]) {
    const path = `${base}/presentation/http/${kebab}.${existing}.ts`;
    if (existsSync(join(root, path))) {
      throw new CliError(`The route of ${name} exists already: ${path}`);
    }
  }
  const group = options.function && options.group === undefined && options.path !== undefined
    ? undefined
    : await findGroup(root, context, options.group, options.function === true);
  const messagePath = kind === "command" ? command : query;
  const shape = readMessageShape(join(root, base, messagePath), name);
  const handlerText = await readFile(
    join(root, base, messagePath.replace(/\.(command|query)\.ts$/, ".handler.ts")),
    "utf8",
  ).catch(() => "");
  const errors = errorCodesName(context);
  const refusals = [
    ...new Set([...handlerText.matchAll(new RegExp(`\\b${errors}\\.([A-Z][A-Z0-9_]*)\\b`, "g"))]
      .map((match) => match[1]!)),
  ].sort();
  const creates = kind === "command" && /\.add\(/.test(handlerText);
  const status = kind === "query"
    ? 200
    : creates
    ? 201
    : /\.enqueue\(/.test(handlerText)
    ? 202
    : shape.result.kind === "void"
    ? 204
    : 200;
  const inPath = creates ? [] : shape.inputs.filter(isPathInput);
  const rest = shape.inputs.filter((input) => !inPath.includes(input));
  const path = options.path ?? routePath(kind, name, inPath, creates);
  const declared = pathParams(path);
  const missing = inPath.filter((input) => !declared.includes(input.name));
  if (options.path !== undefined && missing.length > 0) {
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
  const parts: RouteParts = {
    context,
    kind,
    shape,
    group,
    path,
    status,
    inPath,
    rest,
    messageModule: `../../${messagePath}`,
    refusals,
  };
  const writes: FileWrite[] = [
    {
      path: file,
      create: true,
      contents: options.function ? functionRouteFile(parts) : controllerFile(parts),
    },
    { path: file.replace(/\.ts$/, ".spec.ts"), create: true, contents: specFile(parts) },
  ];
  if (options.function) writes.push(await planRegistration(root, context, kebab, name));
  return await withDerived(root, config, writes);
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
