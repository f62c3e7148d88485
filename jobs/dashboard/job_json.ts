import { queuedJobStatuses } from "@kit/kernel";
import { z } from "zod";
import type { JobView } from "../store/job_reads.ts";

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
});

/** The JSON of one job. */
export type JobJson = z.infer<typeof jobJson>;

/** Writes a job as the dashboard answers it; the checkpoint only when asked (the job page). */
export function toJobJson(job: JobView, options: { checkpoint?: boolean } = {}): JobJson {
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
    ...(options.checkpoint === true && job.checkpoint !== undefined
      ? { checkpoint: job.checkpoint }
      : {}),
  };
}
