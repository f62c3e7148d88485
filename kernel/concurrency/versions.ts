import { ConcurrentUpdateError } from "../errors/kernel_refusals.ts";

/**
 * An aggregate as loaded, with the version it had: the save that follows expects that version
 * (optimistic concurrency), so that two units of work that loaded the same version cannot both
 * save. A new aggregate has version 0; each save adds one.
 */
export interface Versioned<S> {
  /** What the aggregate holds. */
  readonly state: S;
  /** The version it was loaded at (0 for one never saved). */
  readonly version: number;
}

/**
 * Checks the outcome of a conditional save (`update ... where id = $id and version = $expected`):
 * answers the new version when one row changed, throws {@linkcode ConcurrentUpdateError}
 * (`CONCURRENT_UPDATE`, 409) when none did, because other work saved (or removed) the element
 * since it was loaded.
 *
 * @example A versioned save on PostgreSQL
 * ```ts ignore
 * const result = await currentSql(this.sql)`
 *   update scheduling.appointments set status = ${a.status}, version = version + 1
 *   where id = ${a.id} and tenant_id = ${requireTenant()} and version = ${loadedVersion}`;
 * expectSaved(result.count, { type: "appointment", id: a.id, version: loadedVersion });
 * ```
 */
export function expectSaved(
  changedRows: number,
  element: { readonly type: string; readonly id: string; readonly version: number },
): number {
  if (changedRows === 1) return element.version + 1;
  if (changedRows === 0) {
    throw new ConcurrentUpdateError(element.type, element.id, { expectedVersion: element.version });
  }
  throw new Error(
    `A save of ${element.type} '${element.id}' changed ${changedRows} rows: its condition must name one row`,
  );
}
