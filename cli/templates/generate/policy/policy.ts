import { definePolicy } from "@kit/kernel";
import { $permissions$ } from "../../$context$.permissions.ts";

/** $name$: decides '$permission$' instead of the role check alone. */
export const $policyName$ = definePolicy(
  $permissions$["$permission$"],
  // TODO(domain): look at the actor and the element (resource) too. An element belongs to one
  // tenant: refuse unless its tenant (loaded by its id, or named by the message) is
  // execution.tenantId, the tenant the work runs for.
  ({ granted }) => granted,
);
