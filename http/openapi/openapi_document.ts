import type { CompiledRoute } from "../pipeline/compiled_route.ts";
import type { JsonSchema, Schema } from "../schema/schema.ts";

/** The document's `info`. */
export interface OpenApiInfo {
  /** The API's title. */
  readonly title: string;
  /** The API's version. */
  readonly version: string;
  /** A description. */
  readonly description?: string;
  /** The API's license (an SPDX `identifier`, or a `url`). */
  readonly license?: {
    readonly name: string;
    readonly identifier?: string;
    readonly url?: string;
  };
  /** Whom to ask about the API. */
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
}

/** A server the API answers at, for the document's `servers`. */
export interface OpenApiServer {
  /** Its base URL. */
  readonly url: string;
  /** What it is (`production`). */
  readonly description?: string;
}

const problemSchema: JsonSchema = {
  type: "object",
  description: "An RFC 9457 problem document with the error code",
  properties: {
    type: { type: "string", format: "uri-reference" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    instance: { type: "string" },
    code: { type: "string" },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: {
          pointer: { type: "string", description: "JSON pointer into the request" },
          detail: { type: "string" },
          code: { type: "string" },
        },
        required: ["pointer", "detail"],
      },
    },
  },
  required: ["type", "title", "status", "code"],
};

/**
 * The OpenAPI 3.1 document of compiled routes: paths, operations, parameters, bodies, success
 * responses, every declared error code under its status with the problem schema, security, and
 * the permissions a route requires as the extension `x-permissions` (an array of permission
 * names, sorted; absent on a route that names none). Deterministic: the same routes give the same bytes.
 */
export function openApiDocument(
  routes: readonly CompiledRoute[],
  options: {
    info: OpenApiInfo;
    securitySchemes: Readonly<Record<string, unknown>>;
    /** Where the API answers (the document's `servers`). */
    servers?: readonly OpenApiServer[];
    /** The schemes of a closed route whose guards name none (what the authenticators accept). */
    security?: readonly string[];
    /** The header naming a request's tenant (`httpPlugin({ tenantHeader })`), on every operation. */
    tenantHeader?: string;
  },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedSchemes = new Set<string>();
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
    const operation: Record<string, unknown> = { operationId: route.operationId };
    if (route.summary) operation.summary = route.summary;
    if (route.tags.length > 0) operation.tags = [...route.tags];
    if (route.permissions !== undefined && route.permissions.length > 0) {
      operation["x-permissions"] = [...route.permissions];
    }
    const parameters = [
      ...parametersOf(route.parts.params, "path"),
      ...parametersOf(route.parts.query, "query"),
      ...parametersOf(route.parts.headers, "header"),
      ...(route.idempotency === undefined ? [] : [idempotencyKeyParameter(route.idempotency)]),
      ...(options.tenantHeader === undefined ? [] : [tenantHeaderParameter(options.tenantHeader)]),
    ];
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.parts.body) {
      operation.requestBody = {
        // The pipeline hands a request without a body to the schema as `undefined`.
        required: !acceptsNoBody(route.parts.body),
        content: { "application/json": { schema: route.parts.body.jsonSchema() } },
      };
    }
    const responses: Record<string, unknown> = {};
    for (const [status, response] of route.responses) {
      responses[String(status)] = {
        description: response.description,
        ...(response.location
          ? {
            headers: {
              Location: {
                description: "Where the resource (or, for a 202, its status) is",
                required: true,
                schema: { type: "string", format: "uri-reference" },
              },
            },
          }
          : {}),
        ...(response.body
          ? {
            content: Object.fromEntries(
              route.produces.map((type) => [type, { schema: response.body!.jsonSchema() }]),
            ),
          }
          : {}),
      };
    }
    if (route.cache?.etag && (route.method === "GET" || route.method === "HEAD")) {
      responses["304"] = {
        description: "Not modified: the ETag named by If-None-Match is current",
      };
    }
    const byStatus = new Map<number, string[]>();
    for (const [code, { status }] of route.errors) {
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
      const codes = byStatus.get(status)!.sort();
      responses[String(status)] = {
        description: codes.map((code) => {
          const description = route.errors.get(code)!.description;
          return description === undefined ? `- ${code}` : `- ${code}: ${description}`;
        }).join("\n"),
        content: {
          "application/problem+json": {
            schema: {
              allOf: [
                { $ref: "#/components/schemas/Problem" },
                { type: "object", properties: { code: { enum: codes } } },
              ],
            },
          },
        },
      };
    }
    operation.responses = responses;
    const security = route.security.length > 0 ? route.security : options.security ?? [];
    if (route.public) operation.security = [];
    else if (security.length > 0) {
      operation.security = security.map((scheme) => ({ [scheme]: [] }));
      for (const scheme of security) usedSchemes.add(scheme);
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  const securitySchemes: Record<string, unknown> = {};
  for (const scheme of [...usedSchemes].sort()) {
    securitySchemes[scheme] = options.securitySchemes[scheme] ??
      (scheme === "bearer"
        ? { type: "http", scheme: "bearer", bearerFormat: "JWT" }
        : scheme === "apiKey"
        ? { type: "apiKey", in: "header", name: "x-api-key" }
        : { type: "http", scheme: "bearer" });
  }
  return withoutSafeIntegerBounds({
    openapi: "3.1.0",
    info: { ...options.info },
    ...(options.servers && options.servers.length > 0
      ? { servers: options.servers.map((server) => ({ ...server })) }
      : {}),
    paths: Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]])),
    components: {
      schemas: { Problem: problemSchema },
      ...(usedSchemes.size > 0 ? { securitySchemes } : {}),
    },
  }) as Record<string, unknown>;
}

/**
 * The document without the bounds a schema library writes for every integer (JavaScript's
 * safe-integer range, `z.number().int()`): integer bounds appear only where a schema states them.
 */
function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "minimum" && item === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && item === Number.MAX_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(item);
  }
  return out;
}

function idempotencyKeyParameter(options: { readonly required?: boolean }) {
  return {
    name: "Idempotency-Key",
    in: "header",
    required: options.required === true,
    description:
      "A unique key per operation: a retry with the same key and request answers the first answer again (Idempotent-Replayed: true)",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
  };
}

/** Whether a body schema accepts a request without a body (its answer to `undefined`). */
function acceptsNoBody(schema: Schema<unknown>): boolean {
  try {
    const result = schema.validate(undefined);
    return !(result instanceof Promise) && result.ok;
  } catch {
    return false;
  }
}

/** The header naming the tenant, as the pipeline checks it (1 to 128 characters, no control). */
function tenantHeaderParameter(name: string): Record<string, unknown> {
  return {
    name,
    in: "header",
    required: false,
    description:
      "The tenant the request runs for; the caller must belong to it (403 otherwise). Without it, the caller's only tenant: a caller of several tenants names one.",
    schema: {
      type: "string",
      minLength: 1,
      maxLength: 128,
      pattern: "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+$",
    },
  };
}

function parametersOf(
  schema: Schema<unknown> | undefined,
  where: "path" | "query" | "header",
): unknown[] {
  if (schema === undefined) return [];
  const json = schema.jsonSchema() as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(json.required ?? []);
  return Object.keys(json.properties ?? {}).sort().map((name) => ({
    name,
    in: where,
    required: where === "path" ? true : required.has(name),
    schema: json.properties![name],
  }));
}
