import type { ProcessInstanceRef, ProcessReach } from "./process_store.ts";

/** Tells whether the reach includes the tenant. */
export function processReaches(reach: ProcessReach, tenantId: string): boolean {
  if (reach.tenantId === undefined) return true;
  return reach.tenantId === tenantId || (reach.elevatedTenants ?? []).includes(tenantId);
}

/** The cursor of a page after this instance. */
export function processCursorOf(instance: ProcessInstanceRef): string {
  return btoa(JSON.stringify([instance.tenantId, instance.key]));
}

/** The tenant and key of a cursor; undefined when it is not one a page answered. */
export function processCursorRead(cursor: string): [string, string] | undefined {
  try {
    const parsed: unknown = JSON.parse(atob(cursor));
    if (
      Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" &&
      typeof parsed[1] === "string"
    ) return [parsed[0], parsed[1]];
  } catch {
    // not a cursor
  }
  return undefined;
}
