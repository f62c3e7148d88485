// deno-lint-ignore-file no-explicit-any
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { isSchema, type JsonSchema, type Schema, type SchemaResult } from "./schema.ts";
import { standardSchema } from "./standard_schema.ts";

/** A class that describes its fields with a static schema (a kit schema or any Standard Schema). */
export interface SchemaClass<T> {
  /** Builds instances; `classSchema` never calls it (it assigns the validated fields). */
  new (...args: any[]): T;
  /** The schema of the class's fields. */
  readonly schema: Schema<unknown> | StandardSchemaV1;
}

/**
 * A schema from a class: validates with the class's static `schema`, then hands back an instance
 * of the class carrying the validated fields, so a handler reads a DTO with its methods.
 *
 * @example
 * ```ts ignore
 * class Cancellation {
 *   static readonly schema = zodSchema(z.object({ reason: z.string().min(1) }));
 *   declare readonly reason: string;
 *   get isUrgent(): boolean { return this.reason.startsWith("!"); }
 * }
 * body: classSchema(Cancellation)
 * ```
 */
export function classSchema<T extends object>(target: SchemaClass<T>): Schema<T> {
  const fields = (target as { schema?: unknown })?.schema;
  if (typeof target !== "function" || fields === undefined) {
    throw new TypeError(
      `classSchema() takes a class with a static schema, got ${String(target?.name ?? target)}`,
    );
  }
  const schema: Schema<unknown> = isSchema(fields)
    ? fields
    : standardSchema(fields as StandardSchemaV1);
  const build = (result: SchemaResult<unknown>): SchemaResult<T> =>
    result.ok
      ? { ok: true, value: Object.assign(Object.create(target.prototype), result.value) as T }
      : result;
  return {
    kind: "kit.schema",
    validate(input) {
      const result = schema.validate(input);
      return result instanceof Promise ? result.then(build) : build(result);
    },
    jsonSchema(): JsonSchema {
      return { title: target.name, ...schema.jsonSchema() };
    },
  };
}
