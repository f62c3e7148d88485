import type { Permission } from "@kit/kernel";
import { requirementOf } from "@kit/kernel/internal";
import type { MessageClass } from "@kit/kernel/types";

/**
 * A permission a route's use case requires, as a route names it for its document: the command
 * or query class it sends (its `@Requires` permission, none without one), the `Permission` its
 * context declared (`schedulingPermissions["appointment.cancel"]`), or its name.
 */
export type RoutePermission = MessageClass | Permission | string;

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
      if (typeof permission === "function") {
        const required = requirementOf(permission)?.permission.name;
        if (required !== undefined) names.add(required);
        continue;
      }
      const name = typeof permission === "string" ? permission : permission?.name;
      if (typeof name !== "string" || name.length === 0) {
        throw new TypeError(
          `A route's permission is a message class, a Permission or its name, got ${String(name)}`,
        );
      }
      names.add(name);
    }
  }
  return [...names].sort();
}
