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
  const readsOnly = strippedObjectKeys(schema);
  return {
    kind: "kit.schema",
    ...(readsOnly === undefined ? {} : { readsOnly }),
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

/**
 * The keys of a zod object that strips unknown keys (`z.object`, no catchall): it reads only
 * those, and its refinements see the stripped output, so other keys cannot change its answer.
 */
function strippedObjectKeys(schema: ZodType): readonly string[] | undefined {
  const def = (schema as unknown as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (def?.type !== "object" || def.catchall !== undefined) return undefined;
  const shape = def.shape as Record<string, unknown> | undefined;
  return shape === undefined ? undefined : Object.freeze(Object.keys(shape));
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
