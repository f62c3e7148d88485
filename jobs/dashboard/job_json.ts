import { queuedJobStatuses } from "@kit/kernel";
import { z } from "zod";
import type { DashboardJobView } from "./messages.ts";
import { jobAttemptOutcomes } from "../store/job_attempts.ts";

/** One ended attempt of a job, as the job page's JSON answers it. */
export const jobAttemptJson = z.object({
  attempt: z.number().int(),
  outcome: z.enum(jobAttemptOutcomes),
  errorCode: z.string().optional(),
  errorMessage: z.string().optional().meta({ description: "Cut to 500 characters" }),
  startedAt: z.iso.datetime().optional().meta({ description: "When the attempt was claimed" }),
  at: z.iso.datetime().meta({ description: "When the attempt ended" }),
});

/** A job as the dashboard's JSON answers it: dates as ISO text, the actor as kind and id. */
export const jobJson = z.object({
  id: z.string(),
  name: z.string(),
  queue: z.string(),
  status: z.enum(queuedJobStatuses),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  progress: z.object({ done: z.number(), total: z.number().optional() }),
  runAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().optional(),
  tenantId: z.string().optional(),
  subject: z.string().optional(),
  lastErrorCode: z.string().optional(),
  lastErrorAt: z.iso.datetime().optional().meta({
    description: "When the last failed attempt failed",
  }),
  actor: z.object({ kind: z.enum(["user", "service", "system"]), id: z.string() }),
  correlationId: z.string(),
  traceId: z.string().optional(),
  // Any JSON value; not `z.json()`, whose recursive schema the OpenAPI document cannot resolve.
  checkpoint: z.unknown().optional().meta({ description: "The job's last checkpoint (JSON)" }),
  workerId: z.string().optional().meta({
    description: "The worker that holds the job (running) or last held it",
  }),
  workerGone: z.boolean().optional().meta({
    description:
      "True when the job is running and its worker's heartbeat expired: the rescuer returns it to waiting once its lease ends (the job page only)",
  }),
  attemptHistory: z.array(jobAttemptJson).optional().meta({
    description: "The job's last 20 ended attempts, oldest first (the job page only)",
  }),
});

/** The JSON of one job. */
export type JobJson = z.infer<typeof jobJson>;

/**
 * Writes a job as the dashboard answers it; its checkpoint and attempt history only for the job
 * page (`detail`), never in pages of jobs.
 */
export function toJobJson(job: DashboardJobView, options: { detail?: boolean } = {}): JobJson {
  const traceId = job.traceparent?.split("-")[1];
  return {
    id: job.id,
    name: job.name,
    queue: job.queue,
    status: job.status,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    progress: job.progress.total === undefined
      ? { done: job.progress.done }
      : { done: job.progress.done, total: job.progress.total },
    runAt: job.runAt.toISOString(),
    createdAt: job.createdAt.toISOString(),
    ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt.toISOString() }),
    ...(job.tenantId === undefined ? {} : { tenantId: job.tenantId }),
    ...(job.subject === undefined ? {} : { subject: job.subject }),
    ...(job.lastErrorCode === undefined ? {} : { lastErrorCode: job.lastErrorCode }),
    ...(job.lastErrorAt === undefined ? {} : { lastErrorAt: job.lastErrorAt.toISOString() }),
    actor: { kind: job.actor.kind, id: job.actor.id },
    correlationId: job.correlationId,
    ...(traceId === undefined ? {} : { traceId }),
    ...(job.workerId === undefined ? {} : { workerId: job.workerId }),
    ...(job.workerGone === true ? { workerGone: true } : {}),
    ...(options.detail === true && job.checkpoint !== undefined
      ? { checkpoint: job.checkpoint }
      : {}),
    ...(options.detail !== true || job.attemptHistory === undefined ? {} : {
      attemptHistory: job.attemptHistory.map((a) => ({
        attempt: a.attempt,
        outcome: a.outcome,
        ...(a.errorCode === undefined ? {} : { errorCode: a.errorCode }),
        ...(a.errorMessage === undefined ? {} : { errorMessage: a.errorMessage }),
        ...(a.startedAt === undefined ? {} : { startedAt: a.startedAt.toISOString() }),
        at: a.endedAt.toISOString(),
      })),
    }),
  };
}
