import { type ErrorCode, queuedJobStatuses } from "@kit/kernel";
import { defineRoute, type FunctionRoute, zodSchema } from "@kit/http";
import { z } from "zod";
import { jobPageMaxLimit } from "../store/job_reads.ts";
import { jobsDashboardErrors } from "./errors.ts";
import { jobJson, toJobJson } from "./job_json.ts";
import {
  CancelJob,
  PurgeFinishedJobs,
  ReadJob,
  ReadJobActivity,
  ReadJobCounts,
  ReadJobPage,
  ReadOutboxBacklog,
  ReadScheduledJobs,
  ReadWorkers,
  ReviveDeadJobs,
  ReviveJob,
  RunScheduledJob,
} from "./messages.ts";
import type { ScheduledJobView } from "./schedules.ts";
import { toWorkersJson, workersBody } from "./workers_json.ts";
import { processRoutes } from "./process_routes.ts";
import { operationOf } from "./operation_of.ts";

/** A 200 answer with its body. */
const ok = <B>(body: B): { status: 200; body: B } => ({ status: 200, body });

/** The options the routes are built from. */
export interface DashboardRouteOptions {
  /** The path prefix (`/ops/jobs`). */
  readonly prefix: string;
  /** The security schemes every route requires. */
  readonly security: readonly string[];
  /** The tags of the routes in the document. */
  readonly tags: readonly string[];
  /** Mount `GET <prefix>/outbox` (the dashboard was given the outbox). */
  readonly outbox?: boolean;
  /** Mount the process-manager routes (the dashboard was given the process store). */
  readonly processes?: boolean;
}

const count = z.number().int().min(0);
const countsBody = zodSchema(
  z.object({
    queues: z.array(z.object({
      queue: z.string(),
      waiting: count,
      running: count,
      succeeded: count,
      dead: count,
      cancelled: count,
    })),
  }),
  { io: "output" },
);
const activityBody = zodSchema(
  z.object({
    since: z.iso.datetime().meta({ description: "The start of the first bucket" }),
    bucketMs: z.number().int().meta({ description: "The length of a bucket, in ms" }),
    queues: z.array(z.object({
      queue: z.string(),
      succeeded: z.array(count).meta({ description: "Jobs succeeded, per bucket, oldest first" }),
      failed: z.array(count).meta({
        description: "Failed attempts (those that made their job dead included), per bucket",
      }),
      dead: z.array(count).meta({ description: "Jobs dead, per bucket" }),
    })),
  }),
  { io: "output" },
);
const activityQuery = zodSchema(z.object({ queue: z.string().min(1).max(200).optional() }));
const pageBody = zodSchema(
  z.object({ jobs: z.array(jobJson), next: z.string().optional() }),
  { io: "output" },
);
const jobBody = zodSchema(jobJson, { io: "output" });
const jobParams = zodSchema(z.object({ jobId: z.string().min(1).max(200) }));
const queueParams = zodSchema(z.object({ queue: z.string().min(1).max(200) }));
const field = z.string().min(1).max(200).optional();
const pageQuery = zodSchema(z.object({
  queue: field,
  status: z.enum(queuedJobStatuses).optional(),
  name: field,
  subject: field,
  id: field,
  errorCode: field,
  after: z.string().min(1).max(400).optional(),
  limit: z.coerce.number().int().min(1).max(jobPageMaxLimit).default(50),
}));
const actedBody = zodSchema(z.object({ id: z.string() }), { io: "output" });
const schedulesBody = zodSchema(
  z.object({
    scheduledJobs: z.array(z.object({
      name: z.string(),
      queue: z.string(),
      every: z.union([z.string(), z.number()]).meta({
        description: "The interval as declared in @Scheduled({ every })",
      }),
      everyMs: z.number().int(),
      lastTick: z.object({
        at: z.iso.datetime(),
        jobId: z.string(),
        status: z.enum(queuedJobStatuses),
      }).optional(),
      nextTick: z.iso.datetime(),
    })),
  }),
  { io: "output" },
);
const outboxBody = zodSchema(
  z.object({
    handlers: z.array(z.object({
      handler: z.string(),
      pending: count,
      oldestPendingAt: z.iso.datetime().optional(),
      oldestPendingAgeMs: count.optional(),
      retrying: count,
      dead: count,
    })),
  }),
  { io: "output" },
);
const scheduleParams = zodSchema(z.object({ name: z.string().min(1).max(200) }));

/** A scheduled job as the dashboard's JSON answers it. */
function toScheduleJson(view: ScheduledJobView) {
  return {
    name: view.name,
    queue: view.queue,
    every: view.every,
    everyMs: view.everyMs,
    ...(view.lastTick === undefined ? {} : {
      lastTick: {
        at: view.lastTick.at.toISOString(),
        jobId: view.lastTick.jobId,
        status: view.lastTick.status,
      },
    }),
    nextTick: view.nextTick.toISOString(),
  };
}

/**
 * The JSON routes of the dashboard. Each sends one message on the bus, so that the access policy
 * decides its permission (`jobs.read` for reads, `jobs.operate` for actions, named in each
 * route's summary) and audit sees it.
 */
export function dashboardRoutes(options: DashboardRouteOptions): readonly FunctionRoute[] {
  const path = (piece: string) => options.prefix.replace(/\/+$/, "") + piece;
  const common = { security: options.security, tags: options.tags } as const;
  const operation = operationOf(common);
  return [
    defineRoute(
      {
        ...operation(
          "GET",
          path("/queues"),
          "jobsDashboardQueues",
          ReadJobCounts,
          "Each queue's jobs by status",
        ),
        responses: { 200: { description: "The queues, by name", body: countsBody } },
      },
      async ({ context }) =>
        ok({ queues: await context.queries.execute(new ReadJobCounts(context.execution.actor)) }),
    ),
    defineRoute({
      ...operation(
        "GET",
        path("/activity"),
        "jobsDashboardActivity",
        ReadJobActivity,
        "Each queue's activity of the last hour, minute by minute: jobs succeeded, attempts failed, jobs dead",
      ),
      request: { query: activityQuery },
      responses: {
        200: {
          description: "The queues with activity in the hour, by name; 60 buckets each",
          body: activityBody,
        },
      },
    }, async ({ query, context }) => {
      const window = await context.queries.execute(
        new ReadJobActivity(context.execution.actor, query.queue),
      );
      return {
        status: 200,
        body: {
          since: window.since.toISOString(),
          bucketMs: window.bucketMs,
          queues: window.queues.map(({ queue, buckets }) => ({
            queue,
            succeeded: buckets.map((b) => b.succeeded),
            failed: buckets.map((b) => b.failed),
            dead: buckets.map((b) => b.dead),
          })),
        },
      };
    }),
    defineRoute({
      ...operation(
        "GET",
        path("/jobs"),
        "jobsDashboardJobs",
        ReadJobPage,
        "A page of jobs, newest first, searched and narrowed",
      ),
      request: { query: pageQuery },
      responses: {
        200: { description: "The page; `next` is the cursor of the next one", body: pageBody },
      },
      errors: [jobsDashboardErrors.INVALID_CURSOR],
    }, async ({ query, context }) => {
      const search = {
        ...(query.name === undefined ? {} : { name: query.name }),
        ...(query.subject === undefined ? {} : { subject: query.subject }),
        ...(query.id === undefined ? {} : { id: query.id }),
        ...(query.errorCode === undefined ? {} : { errorCode: query.errorCode }),
      };
      const page = await context.queries.execute(
        new ReadJobPage(context.execution.actor, {
          limit: query.limit,
          search,
          ...(query.queue === undefined ? {} : { queue: query.queue }),
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(query.after === undefined ? {} : { after: query.after }),
        }),
      );
      return {
        status: 200,
        body: {
          jobs: page.jobs.map((job) => toJobJson(job)),
          ...(page.next === undefined ? {} : { next: page.next }),
        },
      };
    }),
    defineRoute({
      ...operation(
        "GET",
        path("/jobs/:jobId"),
        "jobsDashboardJob",
        ReadJob,
        "One job with its progress, checkpoint and last attempts, never its payload",
      ),
      request: { params: jobParams },
      responses: { 200: { description: "The job", body: jobBody } },
      errors: [jobsDashboardErrors.JOB_NOT_FOUND],
    }, async ({ params, context }) =>
      ok(toJobJson(
        await context.queries.execute(new ReadJob(context.execution.actor, params.jobId)),
        { detail: true },
      ))),
    defineRoute({
      ...operation(
        "GET",
        path("/workers"),
        "jobsDashboardWorkers",
        ReadWorkers,
        "The live workers (heartbeat not expired) with the running jobs each holds, and the running jobs whose worker is gone",
      ),
      responses: { 200: { description: "The workers, oldest first", body: workersBody } },
    }, async ({ context }) =>
      ok(toWorkersJson(
        await context.queries.execute(new ReadWorkers(context.execution.actor)),
      ))),
    jobAction(path, common, {
      piece: "cancellation",
      operationId: "jobsDashboardCancelJob",
      command: CancelJob,
      summary: "Cancels a waiting or running job",
      description: "The job is cancelled",
      refusal: jobsDashboardErrors.JOB_NOT_CANCELLABLE,
    }),
    jobAction(path, common, {
      piece: "revival",
      operationId: "jobsDashboardReviveJob",
      command: ReviveJob,
      summary: "Revives a dead job: waiting, due now, attempts back to zero",
      description: "The job is waiting again",
      refusal: jobsDashboardErrors.JOB_NOT_DEAD,
    }),
    defineRoute({
      ...operation(
        "POST",
        path("/queues/:queue/revival"),
        "jobsDashboardReviveDeadJobs",
        ReviveDeadJobs,
        "Revives the dead jobs of a queue, up to 1,000 a call",
      ),
      request: { params: queueParams },
      responses: {
        200: {
          description: "How many were revived; `more`: dead jobs are left, call again",
          body: zodSchema(z.object({ revived: count, more: z.boolean() }), { io: "output" }),
        },
      },
    }, async ({ params, context }) =>
      ok(
        await context.commands.execute(
          new ReviveDeadJobs(context.execution.actor, params.queue),
        ),
      )),
    defineRoute({
      ...operation(
        "POST",
        path("/purge"),
        "jobsDashboardPurge",
        PurgeFinishedJobs,
        "Deletes the jobs finished before an instant, of every tenant",
        "work that reaches every tenant",
      ),
      request: { body: zodSchema(z.object({ before: z.iso.datetime() })) },
      responses: {
        200: {
          description: "How many were deleted",
          body: zodSchema(z.object({ purged: count }), { io: "output" }),
        },
      },
    }, async ({ body, context }) =>
      ok({
        purged: await context.commands.execute(
          new PurgeFinishedJobs(context.execution.actor, new Date(body.before)),
        ),
      })),
    defineRoute({
      ...operation(
        "GET",
        path("/schedules"),
        "jobsDashboardScheduledJobs",
        ReadScheduledJobs,
        "The application's scheduled jobs: interval, queue, last and next tick",
      ),
      responses: {
        200: { description: "The scheduled jobs, by name", body: schedulesBody },
      },
    }, async ({ context }) =>
      ok({
        scheduledJobs: (await context.queries.execute(
          new ReadScheduledJobs(context.execution.actor),
        )).map(toScheduleJson),
      })),
    defineRoute({
      ...operation(
        "POST",
        path("/schedules/:name/run"),
        "jobsDashboardRunScheduledJob",
        RunScheduledJob,
        "Enqueues one run of a scheduled job now, its schedule unchanged",
      ),
      request: { params: scheduleParams },
      responses: { 200: { description: "The id of the enqueued job", body: actedBody } },
      errors: [jobsDashboardErrors.SCHEDULED_JOB_NOT_FOUND],
    }, async ({ params, context }) =>
      ok({
        id: await context.commands.execute(
          new RunScheduledJob(context.execution.actor, params.name),
        ),
      })),
    ...(options.outbox === true ? [outboxRoute(path, common)] : []),
    ...(options.processes === true ? processRoutes(path, common) : []),
  ];
}

/** A POST on one job (`/jobs/:jobId/<piece>`) that sends a command about it and answers its id. */
function jobAction(
  path: (piece: string) => string,
  common: { readonly security: readonly string[]; readonly tags: readonly string[] },
  action: {
    readonly piece: string;
    readonly operationId: string;
    readonly command: typeof CancelJob | typeof ReviveJob;
    readonly summary: string;
    readonly description: string;
    readonly refusal: ErrorCode;
  },
): FunctionRoute {
  const operation = operationOf(common);
  return defineRoute({
    ...operation(
      "POST",
      path(`/jobs/:jobId/${action.piece}`),
      action.operationId,
      action.command,
      action.summary,
    ),
    request: { params: jobParams },
    responses: { 200: { description: action.description, body: actedBody } },
    errors: [jobsDashboardErrors.JOB_NOT_FOUND, action.refusal],
  }, async ({ params, context }) => {
    await context.commands.execute(new action.command(context.execution.actor, params.jobId));
    return ok({ id: params.jobId });
  });
}

function outboxRoute(
  path: (piece: string) => string,
  common: { readonly security: readonly string[]; readonly tags: readonly string[] },
): FunctionRoute {
  const operation = operationOf(common);
  return defineRoute({
    ...operation(
      "GET",
      path("/outbox"),
      "jobsDashboardOutbox",
      ReadOutboxBacklog,
      "The outbox's undelivered events by handler: pending, oldest pending's age, retrying, dead",
    ),
    responses: { 200: { description: "The handlers with undelivered events", body: outboxBody } },
  }, async ({ context }) =>
    ok({
      handlers: (await context.queries.execute(new ReadOutboxBacklog(context.execution.actor)))
        .map((entry) => ({
          handler: entry.handler,
          pending: entry.pending,
          ...(entry.oldestPendingAt === undefined
            ? {}
            : { oldestPendingAt: entry.oldestPendingAt.toISOString() }),
          ...(entry.oldestPendingAgeMs === undefined
            ? {}
            : { oldestPendingAgeMs: entry.oldestPendingAgeMs }),
          retrying: entry.retrying,
          dead: entry.dead,
        })),
    }));
}
