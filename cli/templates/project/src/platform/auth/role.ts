import type { RoleGrants } from "@kit/kernel";
// kit:begin permission-imports
// kit:end

/** The permissions granted to each role. */
export const grants: RoleGrants = {
  // kit:begin grants
  // kit:end
};
