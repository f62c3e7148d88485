import type { Actor } from "../actor/actor.ts";
import type { ExecutionContext } from "../actor/execution_context.ts";
import { TenantRequiredError } from "../errors/kernel_refusals.ts";
import { currentScope } from "../unit_of_work/work_scope.ts";

/**
 * Which tenants' data a piece of work reaches: every tenant (the system actor's work that names
 * none), or a list (its tenant and the tenants an elevation names; empty for a user's work that
 * runs for no tenant, which reaches no tenant-owned data at all).
 */
export type TenantsReached =
  | { readonly all: true }
  | { readonly all: false; readonly tenants: readonly string[] };

const nothing: TenantsReached = Object.freeze({ all: false, tenants: Object.freeze([]) });
const everything: TenantsReached = Object.freeze({ all: true });

/**
 * The tenant a caller works for when the request names none: the caller's only tenant, else
 * none (a caller of several tenants must name one; a caller of none works on no tenant data).
 *
 * @example
 * ```ts
 * import { userActor } from "@kit/kernel";
 * import { defaultTenant } from "@kit/kernel/internal";
 * defaultTenant(userActor("ann", { tenants: ["practice-1"] })); // "practice-1"
 * defaultTenant(userActor("bob", { tenants: ["p-1", "p-2"] })); // undefined
 * ```
 */
export function defaultTenant(actor: Actor): string | undefined {
  return actor.kind !== "system" && actor.tenants.length === 1 ? actor.tenants[0] : undefined;
}

/**
 * Which tenants the work reaches. Closed by default: work outside any execution context, and a
 * user's or service's work that runs for no tenant, reach nothing; only the system actor's
 * work without a tenant reaches every tenant.
 *
 * @example Filter a read by the tenants the work reaches
 * ```ts ignore
 * const reach = tenantsReached();
 * const rows = reach.all
 *   ? await sql`select * from calendars`
 *   : await sql`select * from calendars where tenant_id = any(${reach.tenants})`;
 * ```
 */
export function tenantsReached(
  context: ExecutionContext | undefined = currentScope()?.execution,
): TenantsReached {
  if (context === undefined) return nothing;
  const tenantId = context.tenantId;
  const elevated = context.elevatedTenants ?? [];
  if (tenantId === undefined) {
    if (context.actor.kind === "system" && elevated.length === 0) return everything;
    return elevated.length === 0 ? nothing : { all: false, tenants: elevated };
  }
  return { all: false, tenants: elevated.length === 0 ? [tenantId] : [tenantId, ...elevated] };
}

/**
 * Tells whether work in this context may see an element of the given tenant: its own tenant and
 * the elevated ones; every tenant for the system actor's work that names none; nothing for other
 * work that names none. An element without a tenant (`undefined`) is seen only by work that
 * reaches every tenant.
 */
export function reachesTenant(
  context: ExecutionContext | undefined,
  tenantId: string | undefined,
): boolean {
  const reach = tenantsReached(context);
  if (reach.all) return true;
  return tenantId !== undefined && reach.tenants.includes(tenantId);
}

/**
 * The one tenant the work under way runs for; throws {@linkcode TenantRequiredError}
 * (`TENANT_REQUIRED`, 400) when it runs for none. Every write of a tenant-owned row takes its
 * tenant from here, so that no row is written without one.
 *
 * @example Write a row with the work's tenant
 * ```ts ignore
 * await sql`insert into calendars (id, tenant_id) values (${id}, ${requireTenant()})`;
 * ```
 */
export function requireTenant(
  context: ExecutionContext | undefined = currentScope()?.execution,
): string {
  const tenantId = context?.tenantId;
  if (tenantId === undefined) throw new TenantRequiredError();
  return tenantId;
}

/**
 * The tenants the work under way may read, as a list for a filter; throws
 * {@linkcode TenantRequiredError} when it reaches none. Answers `undefined` for work that reaches
 * every tenant (the system actor's), which reads unfiltered.
 */
export function readableTenants(
  context: ExecutionContext | undefined = currentScope()?.execution,
): readonly string[] | undefined {
  const reach = tenantsReached(context);
  if (reach.all) return undefined;
  if (reach.tenants.length === 0) throw new TenantRequiredError();
  return reach.tenants;
}
