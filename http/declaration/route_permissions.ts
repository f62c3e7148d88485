import type { Permission } from "@kit/kernel";

/**
 * A permission a route's use case requires, as a route names it for its document: the
 * `Permission` its context declared (`schedulingPermissions["appointment.cancel"]`), or its name.
 */
export type RoutePermission = Permission | string;

/**
 * The names of the permissions a route requires, each once, sorted: what its operation's
 * `x-permissions` lists in the OpenAPI document.
 */
export function permissionNames(
  ...lists: readonly (readonly RoutePermission[] | undefined)[]
): readonly string[] {
  const names = new Set<string>();
  for (const list of lists) {
    for (const permission of list ?? []) {
      const name = typeof permission === "string" ? permission : permission.name;
      if (typeof name !== "string" || name.length === 0) {
        throw new TypeError(
          `A route's permission is a Permission or its name, got ${String(name)}`,
        );
      }
      names.add(name);
    }
  }
  return [...names].sort();
}
