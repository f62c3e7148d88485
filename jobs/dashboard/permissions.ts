import { definePermissions, type Permission } from "@kit/kernel";

/**
 * The permissions of the jobs dashboard: `jobs.read` to see queues and jobs, `jobs.operate` to
 * act on them (cancel, revive, purge). Grant them to roles like a context's own.
 *
 * @example
 * ```ts ignore
 * const grants = { operator: [jobsPermissions["jobs.read"], jobsPermissions["jobs.operate"]] };
 * ```
 */
export const jobsPermissions: {
  readonly "jobs.read": Permission<"jobs.read">;
  readonly "jobs.operate": Permission<"jobs.operate">;
} = definePermissions("jobs", {
  "jobs.read": { description: "See the queues and jobs of the tenants the work reaches" },
  "jobs.operate": {
    description: "Cancel, revive and purge the jobs of the tenants the work reaches",
  },
});
