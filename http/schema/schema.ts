/** One problem found by a schema, at a path inside the validated value. */
export interface SchemaIssue {
  /** Where: property names and array indexes from the root of the value. */
  readonly path: readonly (string | number)[];
  /** What is wrong, for people. */
  readonly message: string;
  /** A stable code from the validation library, when it has one. */
  readonly code?: string;
}

/** What validating a value answers: the output, or every issue found. */
export type SchemaResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * A schema of any validation library, seen one way: it validates (collecting every issue with
 * its path) and describes itself as a JSON Schema for the OpenAPI document. Built by
 * `zodSchema`, `standardSchema`, `customSchema`.
 */
export interface Schema<T> {
  /** Marks a kit schema. */
  readonly kind: "kit.schema";
  /** Validates an input; synchronous when the library allows it. */
  validate(input: unknown): SchemaResult<T> | Promise<SchemaResult<T>>;
  /** The JSON Schema of the value (of the input, or the output for response schemas). */
  jsonSchema(): JsonSchema;
  /**
   * The only top-level keys the schema reads, when it ignores every other key of an object
   * (a zod object that strips unknown keys): the pipeline then gives it only these keys of the
   * request's headers instead of every header. Unset: the schema is given everything.
   */
  readonly readsOnly?: readonly string[];
  /** Carries the output type only. */
  readonly __output?: T;
}

/** The output type of a schema. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

/**
 * A schema written by hand: a validation function and its JSON Schema.
 *
 * @example
 * ```ts
 * import { customSchema } from "@kit/http";
 * const evenNumber = customSchema<number>({
 *   validate: (input) =>
 *     typeof input === "number" && input % 2 === 0
 *       ? { ok: true, value: input }
 *       : { ok: false, issues: [{ path: [], message: "Expected an even number" }] },
 *   jsonSchema: { type: "integer", multipleOf: 2 },
 * });
 * ```
 */
export function customSchema<T>(definition: {
  validate: (input: unknown) => SchemaResult<T> | Promise<SchemaResult<T>>;
  jsonSchema: JsonSchema;
}): Schema<T> {
  if (typeof definition?.validate !== "function") {
    throw new TypeError("customSchema() needs a validate function");
  }
  const jsonSchema = Object.freeze({ ...definition.jsonSchema });
  return {
    kind: "kit.schema",
    validate: definition.validate,
    jsonSchema: () => jsonSchema,
  };
}

/** Tells whether a value is a kit schema. */
export function isSchema(value: unknown): value is Schema<unknown> {
  return typeof value === "object" && value !== null &&
    (value as { kind?: unknown }).kind === "kit.schema";
}
