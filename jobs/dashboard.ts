/**
 * The jobs dashboard (`jobsDashboard`): a page for operators, an event stream of counts and
 * progress, and the JSON API (queue counts, pages of jobs, one job, the operators' actions), as
 * routes of `@kit/http` guarded by the permissions `jobs.read` and `jobs.operate` (the page and
 * its assets are open: they hold no data).
 *
 * @module
 */
export * from "./dashboard/jobs_dashboard.ts";
export * from "./dashboard/permissions.ts";
export * from "./dashboard/errors.ts";
export * from "./dashboard/messages.ts";
export * from "./dashboard/process_messages.ts";
export type { DashboardEventOptions } from "./dashboard/events.ts";
export { jobsDashboardPagePolicy } from "./dashboard/page_routes.ts";
export type { ScheduledJobView } from "./dashboard/schedules.ts";
export type { OutboxBacklogView } from "./dashboard/outbox_backlog.ts";
export type { WorkerJobView, WorkersView, WorkerView } from "./dashboard/workers.ts";
