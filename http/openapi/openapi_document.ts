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
}

const builtInStatus: Record<string, number> = {
  VALIDATION_FAILED: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  MALFORMED_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONTENT_TOO_LARGE: 413,
  NOT_ACCEPTABLE: 406,
};

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
 * responses, every declared error code under its status with the problem schema, and security.
 * Deterministic: the same routes give the same bytes.
 */
export function openApiDocument(
  routes: readonly CompiledRoute[],
  options: {
    info: OpenApiInfo;
    statusByCode: Readonly<Record<string, number>>;
    securitySchemes: Readonly<Record<string, unknown>>;
    /** The schemes of a closed route whose guards name none (what the authenticators accept). */
    security?: readonly string[];
  },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedSchemes = new Set<string>();
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
    const operation: Record<string, unknown> = { operationId: route.operationId };
    if (route.summary) operation.summary = route.summary;
    if (route.tags.length > 0) operation.tags = [...route.tags];
    const parameters = [
      ...parametersOf(route.parts.params, "path"),
      ...parametersOf(route.parts.query, "query"),
      ...parametersOf(route.parts.headers, "header"),
    ];
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.parts.body) {
      operation.requestBody = {
        required: true,
        content: { "application/json": { schema: route.parts.body.jsonSchema() } },
      };
    }
    const responses: Record<string, unknown> = {};
    for (const [status, response] of route.responses) {
      responses[String(status)] = {
        description: response.description,
        ...(response.body
          ? {
            content: Object.fromEntries(
              route.produces.map((type) => [type, { schema: response.body!.jsonSchema() }]),
            ),
          }
          : {}),
      };
    }
    const byStatus = new Map<number, string[]>();
    for (const code of route.errors) {
      const status = options.statusByCode[code] ?? builtInStatus[code] ?? 422;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
      const codes = byStatus.get(status)!.sort();
      responses[String(status)] = {
        description: codes.join(", "),
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
  return {
    openapi: "3.1.0",
    info: { ...options.info },
    paths: Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]])),
    components: {
      schemas: { Problem: problemSchema },
      ...(usedSchemes.size > 0 ? { securitySchemes } : {}),
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
