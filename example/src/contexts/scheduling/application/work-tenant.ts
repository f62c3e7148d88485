import { currentScope, reachesTenant } from "@kit/kernel";

/** The tenant (practice) of the work under way, when it names one. */
export function workTenant(): string | undefined {
  return currentScope()?.execution.tenantId;
}

/** Whether the work under way may see an element of `tenantId` (none: every work may). */
export function seesTenant(tenantId: string | undefined): boolean {
  return tenantId === undefined || reachesTenant(currentScope()?.execution, tenantId);
}
