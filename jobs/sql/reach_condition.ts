import type { TenantReach } from "../store/job_store.ts";
import type { StatementParams } from "./statement.ts";

/**
 * The condition that keeps the jobs of a reach: all without a tenant, else the tenant's and the
 * elevated ones (a JSON list, not an array parameter: see `insertJobs`).
 *
 * @param p The statement's parameters, to which the tenants are added.
 * @param reach The reach.
 * @returns The SQL condition.
 */
export function reachCondition(p: StatementParams, reach: TenantReach): string {
  if (reach.tenantId === undefined) return "true";
  const tenants = p.json([reach.tenantId, ...(reach.elevatedTenants ?? [])]);
  return `tenant_id in (select jsonb_array_elements_text(${tenants}))`;
}
