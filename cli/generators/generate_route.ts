import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { errorCodesName, errorCodesPath } from "./generate_error_code.ts";
import { checkContext } from "./generate_simple.ts";
import { type Field, type MessageShape, readMessageShape } from "./message_shape.ts";
import { answerSchema, inputSchema } from "./route_schemas.ts";

/** The options of `kit generate route`. */
export interface RouteOptions {
  /** The route group it belongs to (default: the context's only one). */
  readonly group?: string;
  /** Its path under the group's prefix (default: from the message, see `routePath`). */
  readonly path?: string;
}

/** A route group of a context: its class, its file's module name, its prefix. */
interface Group {
  readonly name: string;
  readonly module: string;
  readonly prefix: string;
}

/**
 * Plans the HTTP route of a command or a query of a context: a controller in its route group
 * whose params, query and body schemas come from the message's inputs (inputs named `…Id` in the
 * path, a query's others in the query string, a command's others in the body), whose declared
 * codes are `FORBIDDEN` (a message with a permission) and the context's codes its handler
 * refuses with, and whose answer is the message's result: 201 for a command whose handler adds
 * an aggregate, 202 for one that enqueues a job, 204 for one that answers nothing, 200
 * otherwise. Plus a spec calling it over HTTP through the test application, its answers checked
 * against the OpenAPI document.
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
  const controller = `${base}/presentation/http/${kebab}.controller.ts`;
  if (existsSync(join(root, controller))) {
    throw new CliError(`The route of ${name} exists already: ${controller}`);
  }
  const group = await findGroup(root, context, options.group);
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
  const writes: FileWrite[] = [
    {
      path: controller,
      create: true,
      contents: controllerFile({
        context,
        kind,
        shape,
        group,
        messageModule: `../../${messagePath}`,
        path,
        status,
        inPath,
        rest,
        refusals,
      }),
    },
    {
      path: `${base}/presentation/http/${kebab}.controller.spec.ts`,
      create: true,
      contents: specFile({ context, kind, shape, group, path, status, inPath, rest }),
    },
  ];
  return await withDerived(root, config, writes);
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

async function findGroup(root: string, context: string, asked: string | undefined): Promise<Group> {
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
      ? `Context '${context}' has no route group: run 'kit generate route-group ${context} <Name>Routes' first`
      : `Context '${context}' has ${groups.length} route groups (${
        groups.map((g) => g.name).join(", ")
      }): name one with --group`,
  );
}

/** What the controller and its spec are made of. */
interface RouteParts {
  readonly context: string;
  readonly kind: "command" | "query";
  readonly shape: MessageShape;
  readonly group: Group;
  readonly path: string;
  readonly status: number;
  readonly inPath: readonly Field[];
  readonly rest: readonly Field[];
}

/** The route's summary: its message's words (`OpenLoan` → "Open loan"). */
function summaryOf(name: string): string {
  const words = kebabOf(name).replaceAll("-", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function fullPath(group: Group, path: string): string {
  return `${group.prefix}${path === "/" ? "" : path}` || "/";
}

function controllerFile(
  parts: RouteParts & { messageModule: string; refusals: readonly string[] },
): string {
  const { context, kind, shape, group, path, status, inPath, rest } = parts;
  const where = kind === "query" ? "query" : "body";
  const bus = kind === "command" ? "commands" : "queries";
  const Bus = kind === "command" ? "CommandBus" : "QueryBus";
  const hasAnswer = shape.result.kind !== "void" && status !== 204;
  const schemas: string[] = [];
  const requestParts: string[] = [];
  const requestTypes: string[] = [];
  if (inPath.length > 0) {
    schemas.push(`const params = z.object({\n${inputSchema(inPath, "path")}\n});`);
    requestParts.push("params: zodSchema(params),");
    requestTypes.push("params: z.output<typeof params>");
  }
  if (rest.length > 0) {
    schemas.push(`const ${where} = z.object({\n${inputSchema(rest, where)}\n});`);
    requestParts.push(`${where}: zodSchema(${where}),`);
    requestTypes.push(`${where}: z.output<typeof ${where}>`);
  }
  if (hasAnswer) schemas.push(`const answer = ${answerSchema(shape.result)};`);
  const args = shape.inputs.map((input) =>
    `request.${inPath.includes(input) ? "params" : where}.${input.name}`
  );
  const codes = [
    ...(shape.requiresPermission ? ['"FORBIDDEN"'] : []),
    ...parts.refusals.map((code) => `${errorCodesName(context)}.${code}`),
  ];
  const resultType = !hasAnswer
    ? "void"
    : shape.resultType === undefined
    ? "z.output<typeof answer>"
    : shape.resultType.text;
  const usesZod = schemas.length > 0;
  const imports = [
    `import { Controller, type HttpRequest${usesZod ? ", zodSchema" : ""} } from "@kit/http";`,
    `import type { ${Bus} } from "@kit/kernel";`,
    ...(usesZod ? [`import { z } from "zod";`] : []),
    `import { ${shape.name}${
      hasAnswer && shape.resultType?.exported ? `, type ${shape.resultType.text}` : ""
    } } from "${parts.messageModule}";`,
    ...(parts.refusals.length > 0
      ? [
        `import { ${errorCodesName(context)} } from "../../domain/${
          errorCodesPath(context).split("/").pop()
        }";`,
      ]
      : []),
    `import { ${group.name} } from "${group.module}";`,
  ];
  const method = kind === "command" ? "POST" : "GET";
  const execute = `this.${bus}.execute(new ${shape.name}(request.actor${
    args.map((arg) => `, ${arg}`).join("")
  }))`;
  return `${imports.join("\n")}
${usesZod ? `\n${schemas.join("\n\n")}\n` : ""}
/** ${method} ${fullPath(group, path)}: ${shape.name}${
    kind === "command" ? "" : ", answered as it is"
  }. */
@Controller({
  group: ${group.name},
  method: "${method}",
  path: "${path}",
  summary: "${summaryOf(shape.name)}",
  ${requestParts.join("\n  ")}
  response: { status: ${status}, description: "${describe(status)}"${
    hasAnswer ? ", body: zodSchema(answer)" : ""
  } },${codes.length > 0 ? `\n  errors: [${codes.join(", ")}],` : ""}
})
export class ${shape.name}Controller {
  constructor(private readonly ${bus}: ${Bus}) {}

  ${hasAnswer ? "" : "async "}handle(request: HttpRequest${
    requestTypes.length === 0 ? "" : `<{ ${requestTypes.join("; ")} }>`
  }): Promise<${resultType}> {
    ${hasAnswer ? `return ${execute};` : `await ${execute};`}
  }
}
`;
}

function describe(status: number): string {
  return status === 201
    ? "Created"
    : status === 202
    ? "Accepted: the work runs in the background"
    : status === 204
    ? "Done"
    : "OK";
}

/** A value of an input for the spec's request. */
function sample(input: Field, index: number): string {
  switch (input.shape.kind) {
    case "number":
      return input.initializer ?? "1";
    case "boolean":
      return "true";
    case "enum":
      return JSON.stringify(input.shape.values[0]);
    default:
      return JSON.stringify(`${input.name.replace(/Id$/, "")}-${index + 1}`);
  }
}

function specFile(parts: RouteParts): string {
  const { context, kind, shape, group, path, status, inPath, rest } = parts;
  const camel = camelOf(context);
  const method = kind === "command" ? "POST" : "GET";
  const url = fullPath(group, path).replace(
    /:([a-zA-Z][a-zA-Z0-9]*)/g,
    (_, param: string) => JSON.parse(sample(inPath.find((i) => i.name === param)!, 0)),
  );
  const body = kind === "command" && rest.length > 0
    ? `{ ${rest.map((input, i) => `${input.name}: ${sample(input, i)}`).join(", ")} }`
    : undefined;
  const permissionsModule = `../../${context}.permissions.ts`;
  const exact = inPath.length === 0;
  const title = `${method} ${fullPath(group, path)}`;
  return `import assert from "node:assert/strict";
import { validatingFetch } from "@kit/http/testing";
import { testApplication, testToken } from "../../../../platform/platform-test.module.ts";
import { ${camel}Module } from "../../${context}.module.ts";
${shape.requiresPermission ? `import { ${camel}Permissions } from "${permissionsModule}";\n` : ""}
// The role "granted" holds every permission of the context.
const application = testApplication([${camel}Module], {
  grants: { granted: ${shape.requiresPermission ? `Object.values(${camel}Permissions)` : "[]"} },
});
// Every answer is checked against the OpenAPI document: an undocumented status or body fails.
const fetch = validatingFetch(application.http.fetch, () => application.http.openapi());

function call(token?: string): Promise<Response> {
  return fetch(
    new Request("http://api.test${url}", {
      method: "${method}",
      headers: {
        ...(token === undefined ? {} : { authorization: \`Bearer \${token}\` }),${
    body === undefined ? "" : `\n        "content-type": "application/json",`
  }
      },${body === undefined ? "" : `\n      body: JSON.stringify(${body}),`}
    }),
  );
}

Deno.test("${title} answers ${exact ? status : "as its document says"} to a caller of one tenant${
    shape.requiresPermission ? " with the permission" : ""
  }", async () => {
  const response = await call(await testToken({ sub: "someone", roles: ["granted"], tenants: ["t1"] }));
  ${
    exact
      ? `assert.equal(response.status, ${status}, await response.clone().text());`
      : `// ${url} names nothing the in-memory application holds: a documented refusal, never a 5xx.
  assert.ok(response.status < 500, await response.clone().text());`
  }
  await response.body?.cancel();
});

Deno.test("${title} answers 401 to a caller without a token", async () => {
  const response = await call();
  assert.equal(response.status, 401);
  await response.body?.cancel();
});
${
    shape.requiresPermission
      ? `
Deno.test("${title} answers 403 to a caller without the permission", async () => {
  const response = await call(await testToken({ sub: "someone-else", tenants: ["t1"] }));
  assert.equal(response.status, 403);
  await response.body?.cancel();
});
`
      : ""
  }`;
}
