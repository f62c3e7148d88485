import type { PermissionPolicy } from "@kit/kernel";
// kit:begin policy-imports
// kit:end

/** The explicit access policies: each replaces the role check of the permission it decides. */
export const policies: readonly PermissionPolicy[] = [
  // kit:begin policies
  // kit:end
];
