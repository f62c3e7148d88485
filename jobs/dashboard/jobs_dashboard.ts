import type { Module } from "@kit/kernel";
import type { Outbox } from "@kit/kernel/outbox";
import type { ProcessStore } from "@kit/kernel/process";
import { ModuleBuilder } from "@kit/kernel/types";
import type { FunctionRoute } from "@kit/http";
import type { JobStore } from "../store/job_store.ts";
import { dashboardHandlers } from "./handlers.ts";
import * as messages from "./messages.ts";
import { jobsPermissions } from "./permissions.ts";
import { dashboardRoutes } from "./routes.ts";
import { type DashboardEventOptions, dashboardEventRoute } from "./events.ts";
import { dashboardPageRoutes } from "./page_routes.ts";
import { processHandlers } from "./process_handlers.ts";
import * as processMessages from "./process_messages.ts";

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
  /** How its event stream paces itself (a snapshot each second, streams of 5 minutes). */
  readonly events?: DashboardEventOptions;
  /**
   * The application's outbox (the one given to `eventsPlugin`): when given, `GET <prefix>/outbox`
   * answers its undelivered events by handler and the page shows them; when absent, that route
   * is not mounted (nor in the OpenAPI document) and the page leaves the section out.
   */
  readonly outbox?: Outbox;
  /**
   * The application's process store (the `ProcessStore` its process managers keep instances
   * in): when given, `GET <prefix>/processes`, `GET <prefix>/processes/{process}/instances`,
   * `GET <prefix>/processes/{process}/instances/{key}` and `POST …/{key}/end` are mounted (and
   * in the OpenAPI document) and the page shows a Processes section; when absent, neither.
   */
  readonly processes?: ProcessStore;
}

/** What {@linkcode jobsDashboard} answers: a module, routes and the permissions to grant. */
export interface JobsDashboard {
  /** The module of its queries, commands and handlers: add it to the application's modules. */
  readonly module: Module;
  /**
   * Its routes: give them to `httpPlugin({ routes })`. The page (`GET <prefix>`, its script and
   * stylesheet, open to anyone: they hold no data), the event stream and the JSON API.
   */
  readonly routes: readonly FunctionRoute[];
  /** `jobs.read` (see) and `jobs.operate` (act): grant them to the operators' roles. */
  readonly permissions: typeof jobsPermissions;
  /**
   * Ends the open event streams (and those opened afterwards, after their first snapshot).
   * Call it before a server's graceful shutdown, which waits for every open answer.
   */
  close(): void;
  /** How many event streams are open now. */
  readonly openStreams: number;
}

/**
 * The jobs dashboard, mounted under a prefix: a page for operators (`GET <prefix>`, plain HTML,
 * CSS and a small script served from these routes under a strict Content-Security-Policy; the
 * operator gives their bearer token in the page, kept in the tab's `sessionStorage`), an event
 * stream of counts and progress (`GET <prefix>/events`), and the JSON API: each queue's jobs by
 * status, each queue's activity of the last hour minute by minute (`GET <prefix>/activity`:
 * jobs succeeded, attempts failed, jobs dead), pages of
 * jobs searched by name, subject, id and error code (keyset cursor), one job with its progress
 * and checkpoint (and whether its worker is gone), the live workers with the jobs each holds and
 * the running jobs whose worker is gone (`GET <prefix>/workers`), the actions cancel, revive, revive the dead of a queue, purge, the scheduled
 * jobs with their last and next ticks (`GET <prefix>/schedules`) and running one now
 * (`POST <prefix>/schedules/:name/run`), and, given the `outbox`, its undelivered events by
 * handler (`GET <prefix>/outbox`), and, given the `processes` store, the process managers'
 * instances by status, their pages, one instance with its history and pending deadlines, and
 * ending one (`POST <prefix>/processes/:process/instances/:key/end`). Every route
 * sends a query or command on the bus, so the access policy decides `jobs.read` or
 * `jobs.operate` and the work's tenancy decides which jobs it sees: a job of a tenant is answered
 * only to work that reaches it (404 otherwise). One dashboard per application. Call `close()`
 * before shutting the server down (it ends the open event streams).
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
      messages.ReadJobCounts,
      messages.ReadJobActivity,
      messages.ReadJobPage,
      messages.ReadJob,
      messages.ReadWorkers,
      messages.CancelJob,
      messages.ReviveJob,
      messages.ReviveDeadJobs,
      messages.PurgeFinishedJobs,
      messages.ReadScheduledJobs,
      messages.RunScheduledJob,
      ...(options.outbox === undefined ? [] : [messages.ReadOutboxBacklog]),
      ...(options.processes === undefined ? [] : [
        processMessages.ReadProcessCounts,
        processMessages.ReadProcessInstances,
        processMessages.ReadProcessInstance,
        processMessages.EndProcessInstance,
      ]),
    ]
  ) builder.declare(message);
  for (
    const { message, handler, deps } of [
      ...dashboardHandlers(options.store, options.outbox),
      ...(options.processes === undefined ? [] : processHandlers(options.processes)),
    ]
  ) {
    builder.handler(message, handler as never, { deps });
  }
  const security = options.security ?? ["bearer"];
  const tags = options.tags ?? ["jobs"];
  const outbox = options.outbox !== undefined;
  const processes = options.processes !== undefined;
  const events = dashboardEventRoute({
    prefix: options.prefix,
    security,
    tags,
    ...(options.events === undefined ? {} : { events: options.events }),
  });
  return {
    module: builder.build("jobs-dashboard"),
    routes: [
      ...dashboardPageRoutes({ prefix: options.prefix, tags, outbox, processes }),
      events.route,
      ...dashboardRoutes({ prefix: options.prefix, security, tags, outbox, processes }),
    ],
    permissions: jobsPermissions,
    close: () => events.streams.close(),
    get openStreams() {
      return events.streams.open;
    },
  };
}
