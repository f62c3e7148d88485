/**
 * The jobs dashboard's JSON API (`jobsDashboard`): queue counts, pages of jobs, one job, and the
 * operators' actions, as routes of `@kit/http` guarded by the permissions `jobs.read` and
 * `jobs.operate`.
 *
 * @module
 */
export * from "./dashboard/jobs_dashboard.ts";
export * from "./dashboard/permissions.ts";
export * from "./dashboard/errors.ts";
export * from "./dashboard/messages.ts";
