import { token, type Versioned } from "@kit/kernel";
import type { $name$ } from "../../domain/$kebab$.ts";

/**
 * Where $name$ aggregates are kept. Tenant-owned: $one$ is added for the tenant
 * of the work that adds it (`TENANT_REQUIRED` when the work has none) and only that tenant's
 * work finds or saves it; ids are each tenant's own. Versioned: `get` answers the version it
 * loaded, `save` expects it, and a save on a version other work changed meanwhile is refused
 * (`CONCURRENT_UPDATE`, 409) and changes nothing.
 */
export interface $port$ {
  /**
   * The $name$ with this id and the version it was loaded at; undefined when the tenants
   * the work reaches have none. Work that reaches no tenant is refused (`TENANT_REQUIRED`).
   */
  get(id: string): Promise<Versioned<$name$> | undefined>;
  /**
   * Adds a new $name$ for the work's tenant, at version 1 (answered). An id the tenant keeps
   * already is refused (`$exists$`, 409), never overwritten; another tenant's
   * $name$ of the same id is no obstacle, and is never revealed.
   */
  add($variable$: $name$): Promise<number>;
  /**
   * Saves $one$ loaded at `version` and answers its new version;
   * `CONCURRENT_UPDATE` when other work saved it since (or it is another tenant's).
   */
  save($variable$: $name$, version: number): Promise<number>;
  /**
   * One page (`page` from 1, `pageSize` of them) of the $name$s of the tenants the work
   * reaches, by id, and how many they have in all. Work that reaches no tenant is refused
   * (`TENANT_REQUIRED`).
   */
  list(page: number, pageSize: number): Promise<$name$Page>;
}

/** One page of $name$s, and how many there are in all. */
export interface $name$Page {
  readonly items: readonly $name$[];
  readonly total: number;
}

/** The token $port$ is provided under. */
export const $port$ = token<$port$>("$context$.$port$");
