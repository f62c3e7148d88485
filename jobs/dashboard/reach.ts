import { currentScope, TenantRequiredError, tenantsReached } from "@kit/kernel";
import type { TenantReach } from "../store/job_store.ts";

/**
 * The jobs the work under way reaches, as a store filters them (as `BackgroundJobs` reads it):
 * every tenant's for the system actor's work without a tenant; its tenant's and the elevated
 * ones'; other work without a tenant is refused with `TENANT_REQUIRED`.
 */
export function dashboardReach(): TenantReach {
  const execution = currentScope()?.execution;
  if (execution === undefined) return {};
  const reached = tenantsReached(execution);
  if (reached.all) return {};
  const [tenantId, ...elevated] = reached.tenants;
  if (tenantId === undefined) throw new TenantRequiredError();
  return { tenantId, ...(elevated.length > 0 ? { elevatedTenants: elevated } : {}) };
}
