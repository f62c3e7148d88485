import {
  type ProcessInstanceRef,
  processPageMaxLimit,
  type ProcessReach,
} from "./process_store.ts";

/** Refuses a page size out of 1 to {@linkcode processPageMaxLimit} (a `RangeError`). */
export function checkProcessPageLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > processPageMaxLimit) {
    throw new RangeError(
      `A page of instances holds 1 to ${processPageMaxLimit} instances, got ${limit}`,
    );
  }
}

/** Tells whether the reach includes the tenant. */
export function processReaches(reach: ProcessReach, tenantId: string): boolean {
  if (reach.tenantId === undefined) return true;
  return reach.tenantId === tenantId || (reach.elevatedTenants ?? []).includes(tenantId);
}

/** The cursor of a page after this instance: its tenant and key, as URL-safe base64 of UTF-8. */
export function processCursorOf(instance: ProcessInstanceRef): string {
  const bytes = new TextEncoder().encode(JSON.stringify([instance.tenantId, instance.key]));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The tenant and key of a cursor; undefined when it is not one a page answered. */
export function processCursorRead(cursor: string): [string, string] | undefined {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
    const parsed: unknown = JSON.parse(text);
    if (
      Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" &&
      typeof parsed[1] === "string"
    ) return [parsed[0], parsed[1]];
  } catch {
    // not a cursor
  }
  return undefined;
}
