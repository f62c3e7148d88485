import { camelOf, kebabOf } from "../project/kit_config.ts";
import { errorCodesName, errorCodesPath } from "./generate_error_code.ts";
import type { Field, MessageShape } from "./message_shape.ts";
import { answerSchema, inputSchema } from "./route_schemas.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** A route group of a context: its class, its file's module name, its prefix. */
export interface Group {
  readonly name: string;
  readonly module: string;
  readonly prefix: string;
}

/** What a generated route and its spec are made of. */
export interface RouteParts {
  readonly context: string;
  readonly kind: "command" | "query";
  readonly shape: MessageShape;
  /** Its group (a controller's; a function route takes only its prefix). */
  readonly group: Group | undefined;
  /** Its path under the group's prefix (a function route without a group: its whole path). */
  readonly path: string;
  readonly status: number;
  /** The inputs read from the path, and the others (query string or body). */
  readonly inPath: readonly Field[];
  readonly rest: readonly Field[];
  /** The module of the message, from `presentation/http/`. */
  readonly messageModule: string;
  /** The context's codes its handler refuses with. */
  readonly refusals: readonly string[];
}

/** The route's method: a command is sent by POST, a query read by GET. */
export function methodOf(kind: "command" | "query"): "POST" | "GET" {
  return kind === "command" ? "POST" : "GET";
}

/** The path a caller calls: the group's prefix and the route's path. */
export function fullPath(parts: Pick<RouteParts, "group" | "path">): string {
  const prefix = parts.group?.prefix ?? "";
  return `${prefix}${parts.path === "/" && prefix !== "" ? "" : parts.path}` || "/";
}

/** The route's summary: its message's words (`OpenLoan` → "Open loan"). */
function summaryOf(name: string): string {
  const words = kebabOf(name).replaceAll("-", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
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

/** What the controller and the function route share: schemas, codes, the message's arguments. */
function common(parts: RouteParts, source: "request." | "input.") {
  const { context, kind, shape, status, inPath, rest } = parts;
  const where = kind === "query" ? "query" : "body";
  const hasAnswer = shape.result.kind !== "void" && status !== 204;
  const schemas: string[] = [];
  const parsed: { part: string; schema: string }[] = [];
  if (inPath.length > 0) {
    schemas.push(`const paramsSchema = z.object({\n${inputSchema(inPath, "path")}\n});`);
    parsed.push({ part: "params", schema: "paramsSchema" });
  }
  if (rest.length > 0) {
    schemas.push(`const ${where}Schema = z.object({\n${inputSchema(rest, where)}\n});`);
    parsed.push({ part: where, schema: `${where}Schema` });
  }
  if (hasAnswer) schemas.push(`const answerSchema = ${answerSchema(shape.result)};`);
  const args = shape.inputs.map((input) =>
    `${source}${inPath.includes(input) ? "params" : where}.${input.name}`
  );
  const codes = [
    ...(shape.requiresPermission ? ['"FORBIDDEN"'] : []),
    ...parts.refusals.map((code) => `${errorCodesName(context)}.${code}`),
  ];
  const imports = [
    ...(schemas.length > 0 ? [`import { z } from "zod";`] : []),
    `import { ${shape.name} } from "${parts.messageModule}";`,
    ...(parts.refusals.length > 0
      ? [
        `import { ${errorCodesName(context)} } from "../../domain/${
          errorCodesPath(context).split("/").pop()
        }";`,
      ]
      : []),
  ];
  return { hasAnswer, schemas, parsed, args, codes, imports, usesZod: schemas.length > 0 };
}

/**
 * A controller of the route in its group (`@Controller`). Its `permissions` names the message it
 * sends, whether or not that message requires one: the OpenAPI document lists the message's
 * `@Requires` permission as the operation's `x-permissions`, and nothing for a message without
 * one, so the document follows the message when its permission changes. The route is a constant
 * (`controllerRoute`) its handler takes its types from (`RequestOf`, `ResponseOf`). What follows
 * the message (imports, schemas, the message a request sends, the request, answer and codes it
 * declares) is in kit's parts (`// kit:begin route …`), which `kit generate route --update`
 * rewrites; the rest (its group, method, path, summary, the class and its handler) is the user's.
 */
export function controllerFile(parts: RouteParts): string {
  const { kind, shape, group, path, status } = parts;
  const bus = kind === "command" ? "commands" : "queries";
  const Bus = kind === "command" ? "CommandBus" : "QueryBus";
  const { hasAnswer, schemas, parsed, args, codes, imports, usesZod } = common(parts, "request.");
  return generatorTemplate("route/controller.ts", {
    zodSchemaImport: usesZod ? ", zodSchema" : "",
    Bus,
    imports: imports.join("\n"),
    group: group!.name,
    groupModule: group!.module,
    schemas: usesZod ? `${schemas.join("\n\n")}\n\n` : "",
    message: shape.name,
    arguments: args.map((arg) => `, ${arg}`).join(""),
    method: methodOf(kind),
    fullPath: fullPath(parts),
    answered: kind === "command" ? "" : ", answered as it is",
    path,
    summary: summaryOf(shape.name),
    requestSchemas: parsed.map((p) => `${p.part}: zodSchema(${p.schema}),`).join("\n  "),
    status: String(status),
    description: describe(status),
    answerBody: hasAnswer ? ", body: zodSchema(answerSchema)" : "",
    errors: codes.length > 0 ? `\n  errors: [${codes.join(", ")}],` : "",
    bus,
  });
}

/** The name a function route is exported under (`openLoanRoute`). */
export function functionRouteName(message: string): string {
  return `${camelOf(kebabOf(message))}Route`;
}

/**
 * A function route (`defineRoute`): the same schemas, codes, status and permissions as the
 * controller, its whole path stated, its security the bearer scheme (a group's guards do not
 * apply to it). What follows the message is in kit's parts (`// kit:begin route …`), as in a
 * controller.
 */
export function functionRouteFile(parts: RouteParts): string {
  const { context, kind, shape, status } = parts;
  const bus = kind === "command" ? "commands" : "queries";
  const { hasAnswer, schemas, parsed, args, codes, imports, usesZod } = common(parts, "input.");
  const execute = `input.context.${bus}.execute(new ${shape.name}(input.context.execution.actor${
    args.map((arg) => `, ${arg}`).join("")
  }))`;
  return generatorTemplate("route/function-route.ts", {
    zodSchemaImport: usesZod ? ", zodSchema" : "",
    imports: imports.join("\n"),
    schemas: usesZod ? schemas.join("\n\n") : "",
    method: methodOf(kind),
    fullPath: fullPath(parts),
    message: shape.name,
    routeName: functionRouteName(shape.name),
    operationId: camelOf(kebabOf(shape.name)),
    summary: summaryOf(shape.name),
    context,
    request: parsed.length === 0
      ? ""
      : `request: { ${parsed.map((p) => `${p.part}: zodSchema(${p.schema})`).join(", ")} },`,
    status: String(status),
    description: describe(status),
    answerBody: hasAnswer ? ", body: zodSchema(answerSchema)" : "",
    errors: codes.length > 0 ? `\n  errors: [${codes.join(", ")}],` : "",
    call: hasAnswer
      ? `return { status: ${status}, body: await ${execute} };`
      : `await ${execute};\n  return { status: ${status} };`,
  });
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

/**
 * The route's spec: it calls the route over HTTP through the test application, every answer
 * checked against the OpenAPI document: the success status for a caller with the permission (any
 * documented refusal when its path names what the in-memory application lacks), 401 without a
 * token, 403 without the permission. Its setup, `call` and the success status are kit's part,
 * which `--update` rewrites; the tests are the user's.
 */
export function specFile(parts: RouteParts): string {
  const { context, kind, shape, status, inPath, rest } = parts;
  const camel = camelOf(context);
  const method = methodOf(kind);
  const url = fullPath(parts).replace(
    /:([a-zA-Z][a-zA-Z0-9]*)/g,
    (_, param: string) => JSON.parse(sample(inPath.find((i) => i.name === param)!, 0)),
  );
  const body = kind === "command" && rest.length > 0
    ? `{ ${rest.map((input, i) => `${input.name}: ${sample(input, i)}`).join(", ")} }`
    : undefined;
  const permissionsModule = `../../${context}.permissions.ts`;
  const exact = inPath.length === 0;
  const title = `${method} ${fullPath(parts)}`;
  return generatorTemplate("route/controller.spec.ts", {
    camel,
    context,
    permissionsImport: shape.requiresPermission
      ? `import { ${camel}Permissions } from "${permissionsModule}";\n`
      : "",
    granted: shape.requiresPermission ? `Object.values(${camel}Permissions)` : "[]",
    url,
    method,
    contentType: body === undefined ? "" : `\n        "content-type": "application/json",`,
    body: body === undefined ? "" : `\n      body: JSON.stringify(${body}),`,
    success: exact
      ? `\n\n/** What the route answers a caller with the permission: its documented success. */\nconst success = ${status};`
      : "",
    title,
    answers: exact ? String(status) : "as its document says",
    withPermission: shape.requiresPermission ? " with the permission" : "",
    successCheck: exact
      ? `assert.equal(response.status, success, await response.clone().text());`
      : `// ${url} names nothing the in-memory application holds: a documented refusal, never a 5xx.
  assert.ok(response.status < 500, await response.clone().text());`,
    forbiddenTest: shape.requiresPermission
      ? generatorTemplate("route/forbidden.spec.part.ts", { title })
      : "",
  });
}
