import type { Actor } from "@kit/kernel";
import { hasRole } from "@kit/kernel";
import type { JsonSchema, Schema } from "./schema.ts";

/** Who may see a field: callers holding one of the roles, or those a predicate lets through. */
export type FieldAccessRule = { readonly roles: readonly string[] } | ((actor: Actor) => boolean);

/** A response schema whose fields are reserved to some callers. */
export interface FieldAccessSchema<T> extends Schema<T> {
  /** The reserved fields and who may see them. */
  readonly fieldAccess: Readonly<Record<string, FieldAccessRule>>;
}

/**
 * Marks fields of a response schema as reserved: the pipeline leaves them out of the body for
 * callers without access (also in each item of an array body), and the document says so
 * (`x-field-access`, and the field is not required). Serializers shape bodies; this decides who
 * sees what.
 *
 * @example
 * ```ts ignore
 * response: {
 *   status: 200,
 *   body: withFieldAccess(zodSchema(Appointment, { io: "output" }), { internalNote: { roles: ["practitioner"] } }),
 * }
 * ```
 */
export function withFieldAccess<T>(
  schema: Schema<T>,
  fields: { readonly [K in keyof T & string]?: FieldAccessRule },
): FieldAccessSchema<T> {
  const rules = Object.freeze({ ...fields }) as Readonly<Record<string, FieldAccessRule>>;
  for (const [field, rule] of Object.entries(rules)) {
    if (typeof rule !== "function" && !(Array.isArray(rule?.roles) && rule.roles.length > 0)) {
      throw new TypeError(`The access rule of field '${field}' needs roles or a predicate`);
    }
  }
  let json: JsonSchema | undefined;
  return {
    ...schema,
    fieldAccess: rules,
    validate: (input) => schema.validate(input),
    jsonSchema(): JsonSchema {
      if (json !== undefined) return json;
      const base = structuredClone(schema.jsonSchema()) as {
        properties?: Record<string, Record<string, unknown>>;
        required?: string[];
        items?: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      };
      const target = base.properties ? base : base.items ?? base;
      for (const [field, rule] of Object.entries(rules)) {
        const property = target.properties?.[field];
        if (property === undefined) continue;
        const who = typeof rule === "function"
          ? "callers the access rule allows"
          : `roles ${rule.roles.join(", ")}`;
        property["x-field-access"] = typeof rule === "function" ? "rule" : rule.roles;
        property.description = `${
          property.description ? `${property.description} ` : ""
        }Present only for ${who}.`;
        if (target.required) target.required = target.required.filter((name) => name !== field);
      }
      return (json = base);
    },
  };
}

/** Builds the filter of a body for an actor, or undefined when the schema reserves nothing. */
export function fieldFilter(
  schema: Schema<unknown> | undefined,
): ((body: unknown, actor: Actor) => unknown) | undefined {
  const rules = (schema as Partial<FieldAccessSchema<unknown>> | undefined)?.fieldAccess;
  if (rules === undefined || Object.keys(rules).length === 0) return undefined;
  const entries = Object.entries(rules).map(([field, rule]) =>
    [
      field,
      typeof rule === "function" ? rule : (actor: Actor) => hasRole(actor, ...rule.roles),
    ] as const
  );
  const strip = (value: unknown, actor: Actor): unknown => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const [field, allows] of entries) {
      if (field in value && !allows(actor)) {
        copy ??= { ...(value as Record<string, unknown>) };
        delete copy[field];
      }
    }
    return copy ?? value;
  };
  return (body, actor) =>
    Array.isArray(body) ? body.map((item) => strip(item, actor)) : strip(body, actor);
}
