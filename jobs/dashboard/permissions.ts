import { definePermissions, type Permission } from "@kit/kernel";

/**
 * The permissions of the jobs dashboard: `jobs.read` to see queues, jobs, live workers, scheduled
 * jobs and the outbox's backlog, `jobs.operate` to act (cancel, revive, purge, run a scheduled job now). Grant them to roles like a context's own.
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
  "jobs.read": {
    description:
      "See the queues, jobs, live workers, scheduled jobs and outbox backlog of the tenants the work reaches",
  },
  "jobs.operate": {
    description:
      "Cancel, revive and purge the jobs of the tenants the work reaches; run scheduled jobs now",
  },
});
