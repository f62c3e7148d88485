/** A permission: what an actor may do to an element, decided by the bus. */
export interface Permission<Name extends string = string> {
  /** The permission's name, `<element>.<verb>` (`appointment.cancel`). */
  readonly name: Name;
  /** The bounded context that declares it. */
  readonly context: string;
  /** What the permission allows, for people. */
  readonly description: string;
}

/** The permissions of one context, by name. */
export type PermissionSet<M extends Record<string, { description: string }>> = {
  readonly [K in keyof M & string]: Permission<K>;
};

const namePattern = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/;

/**
 * Declares the permissions of a context.
 *
 * @example
 * ```ts
 * import { definePermissions } from "@kit/kernel";
 * export const permissions = definePermissions("scheduling", {
 *   "appointment.cancel": { description: "Cancel an appointment" },
 * });
 * permissions["appointment.cancel"].name; // "appointment.cancel"
 * ```
 */
export function definePermissions<const M extends Record<string, { description: string }>>(
  context: string,
  declarations: M,
): PermissionSet<M> {
  if (typeof context !== "string" || !/^[a-z][a-z0-9-]*$/.test(context)) {
    throw new TypeError(`Invalid context name ${JSON.stringify(context)}: use kebab-case`);
  }
  const out: Record<string, Permission> = {};
  for (const name of Object.keys(declarations).sort()) {
    if (!namePattern.test(name)) {
      throw new TypeError(
        `Invalid permission name '${name}' in context '${context}': use '<element>.<verb>'`,
      );
    }
    const description = declarations[name]?.description;
    if (typeof description !== "string" || description.length === 0) {
      throw new TypeError(`Permission '${name}' of context '${context}' needs a description`);
    }
    out[name] = Object.freeze({ name, context, description });
  }
  return Object.freeze(out) as PermissionSet<M>;
}
