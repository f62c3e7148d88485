import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonSchema, Schema, SchemaIssue, SchemaResult } from "./schema.ts";

/**
 * Adapts any Standard Schema (valibot, arktype, zod, ...). The JSON Schema comes from the
 * library when it can give one (arktype's `toJsonSchema()`, zod's `toJSONSchema`), else from the
 * `jsonSchema` option; without either the document shows an open schema.
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * import { standardSchema } from "@kit/http";
 * const body = standardSchema(v.object({ reason: v.pipe(v.string(), v.minLength(1)) }), {
 *   jsonSchema: { type: "object", properties: { reason: { type: "string", minLength: 1 } }, required: ["reason"] },
 * });
 * ```
 */
export function standardSchema<S extends StandardSchemaV1>(
  schema: S,
  options: { jsonSchema?: JsonSchema } = {},
): Schema<StandardSchemaV1.InferOutput<S>> {
  const standard = schema?.["~standard"];
  if (typeof standard?.validate !== "function") {
    throw new TypeError("standardSchema() takes a schema implementing Standard Schema v1");
  }
  let json: JsonSchema | undefined = options.jsonSchema;
  return {
    kind: "kit.schema",
    validate(input: unknown) {
      const result = standard.validate(input);
      return result instanceof Promise ? result.then(toResult) : toResult(result);
    },
    jsonSchema(): JsonSchema {
      if (json === undefined) json = vendorJsonSchema(schema) ?? {};
      return json;
    },
  } as Schema<StandardSchemaV1.InferOutput<S>>;
}

function vendorJsonSchema(schema: unknown): JsonSchema | undefined {
  const candidate = schema as { toJsonSchema?: () => unknown };
  if (typeof candidate.toJsonSchema === "function") {
    try {
      const { $schema: _, ...rest } = candidate.toJsonSchema() as Record<string, unknown>;
      return rest;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function toResult<T>(result: StandardSchemaV1.Result<T>): SchemaResult<T> {
  if (result.issues === undefined) return { ok: true, value: result.value };
  const issues: SchemaIssue[] = result.issues.map((issue) => ({
    path: (issue.path ?? []).map((segment) => {
      const key = typeof segment === "object" ? segment.key : segment;
      return typeof key === "number" ? key : String(key);
    }),
    message: issue.message,
  }));
  return { ok: false, issues };
}
