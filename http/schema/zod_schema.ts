import { toJSONSchema, type ZodType } from "zod";
import type { JsonSchema, Schema, SchemaIssue, SchemaResult } from "./schema.ts";

/**
 * Adapts a zod 4 schema. Response schemas take `{ io: "output" }`, so that the document shows
 * what the server sends (after transforms and defaults).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { zodSchema } from "@kit/http";
 * const body = zodSchema(z.object({ reason: z.string().min(1) }));
 * ```
 */
export function zodSchema<S extends ZodType>(
  schema: S,
  options: { io?: "input" | "output" } = {},
): Schema<S["_zod"]["output"]> {
  if (typeof (schema as { safeParse?: unknown })?.safeParse !== "function") {
    throw new TypeError("zodSchema() takes a zod schema");
  }
  const io = options.io ?? "input";
  let json: JsonSchema | undefined;
  return {
    kind: "kit.schema",
    validate(
      input: unknown,
    ): SchemaResult<S["_zod"]["output"]> | Promise<SchemaResult<S["_zod"]["output"]>> {
      let result;
      try {
        result = schema.safeParse(input);
      } catch (error) {
        if (error instanceof Error && /async/i.test(error.message)) {
          return schema.safeParseAsync(input).then(toResult);
        }
        throw error;
      }
      return toResult(result);
    },
    jsonSchema(): JsonSchema {
      if (json === undefined) {
        const { $schema: _, ...rest } = toJSONSchema(schema, {
          io,
          unrepresentable: "any",
        }) as Record<string, unknown>;
        json = Object.freeze(rest);
      }
      return json;
    },
  };
}

function toResult<T>(
  result: { success: true; data: T } | {
    success: false;
    error: { issues: readonly { path: PropertyKey[]; message: string; code?: string }[] };
  },
): SchemaResult<T> {
  if (result.success) return { ok: true, value: result.data };
  const issues: SchemaIssue[] = result.error.issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: issue.message,
    ...(issue.code === undefined ? {} : { code: issue.code }),
  }));
  return { ok: false, issues };
}
