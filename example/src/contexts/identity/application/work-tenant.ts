import { currentScope } from "@kit/kernel";

/** The tenant (practice) of the work under way, when it names one. */
export function workTenant(): string | undefined {
  return currentScope()?.execution.tenantId;
}
