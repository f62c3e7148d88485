import { type Module, ModuleBuilder } from "@kit/kernel";
import type { FunctionRoute } from "@kit/http";
import type { JobStore } from "../store/job_store.ts";
import { dashboardHandlers } from "./handlers.ts";
import {
  CancelJob,
  PurgeFinishedJobs,
  ReadJob,
  ReadJobCounts,
  ReadJobPage,
  ReviveDeadJobs,
  ReviveJob,
} from "./messages.ts";
import { jobsPermissions } from "./permissions.ts";
import { dashboardRoutes } from "./routes.ts";

/** The options of {@linkcode jobsDashboard}. */
export interface JobsDashboardOptions {
  /** The path prefix of its routes (`/ops/jobs`). */
  readonly prefix: string;
  /** The store of the application's jobs (the one given to `jobsPlugin`). */
  readonly store: JobStore;
  /** The security schemes its routes require (default `["bearer"]`). */
  readonly security?: readonly string[];
  /** The tags of its routes in the OpenAPI document (default `["jobs"]`). */
  readonly tags?: readonly string[];
}

/** What {@linkcode jobsDashboard} answers: a module, routes and the permissions to grant. */
export interface JobsDashboard {
  /** The module of its queries, commands and handlers: add it to the application's modules. */
  readonly module: Module;
  /** Its JSON routes: give them to `httpPlugin({ routes })`. */
  readonly routes: readonly FunctionRoute[];
  /** `jobs.read` (see) and `jobs.operate` (act): grant them to the operators' roles. */
  readonly permissions: typeof jobsPermissions;
}

/**
 * The jobs dashboard's JSON API, mounted under a prefix: each queue's jobs by status, pages of
 * jobs searched by name, subject, id and error code (keyset cursor), one job with its progress
 * and checkpoint, and the actions cancel, revive, revive the dead of a queue, purge. Every route
 * sends a query or command on the bus, so the access policy decides `jobs.read` or
 * `jobs.operate` and the work's tenancy decides which jobs it sees: a job of a tenant is answered
 * only to work that reaches it (404 otherwise). One dashboard per application.
 *
 * @example
 * ```ts ignore
 * const store = new InMemoryJobStore();
 * const dashboard = jobsDashboard({ prefix: "/ops/jobs", store });
 * const application = composeApplication({
 *   modules: [...modules, dashboard.module],
 *   accessPolicy: accessPolicy({ grants: { operator: Object.values(dashboard.permissions) } }),
 *   plugins: {
 *     backgroundJobs: jobsPlugin({ store }),
 *     http: httpPlugin({ authenticators, routes: [...routes, ...dashboard.routes] }),
 *   },
 * });
 * ```
 */
export function jobsDashboard(options: JobsDashboardOptions): JobsDashboard {
  const builder = new ModuleBuilder();
  for (
    const message of [
      ReadJobCounts,
      ReadJobPage,
      ReadJob,
      CancelJob,
      ReviveJob,
      ReviveDeadJobs,
      PurgeFinishedJobs,
    ]
  ) builder.declare(message);
  for (const { message, handler, deps } of dashboardHandlers(options.store)) {
    builder.handler(message, handler as never, { deps });
  }
  return {
    module: builder.build("jobs-dashboard"),
    routes: dashboardRoutes({
      prefix: options.prefix,
      security: options.security ?? ["bearer"],
      tags: options.tags ?? ["jobs"],
    }),
    permissions: jobsPermissions,
  };
}
