import { zodSchema } from "@kit/http";
import { z } from "zod";
import type { WorkersView } from "./workers.ts";

const jobBrief = z.object({ id: z.string(), name: z.string(), queue: z.string() });

const workersJson = z.object({
  workers: z.array(z.object({
    id: z.string(),
    host: z.string().optional(),
    pid: z.number().int().optional(),
    queues: z.array(z.string()),
    startedAt: z.iso.datetime(),
    heartbeatAt: z.iso.datetime().meta({ description: "Its last heartbeat" }),
    expiresAt: z.iso.datetime().meta({
      description: "When it shows as gone unless it beats again",
    }),
    runningJobs: z.array(jobBrief).meta({
      description: "The running jobs it holds (of the first 1,000 running jobs)",
    }),
  })),
  orphanedJobs: z.array(jobBrief.extend({ workerId: z.string() })).meta({
    description:
      "Running jobs whose worker's heartbeat expired: the rescuer returns each to waiting once its lease ends",
  }),
});

/** The body of `GET <prefix>/workers`. */
export const workersBody: ReturnType<typeof zodSchema<typeof workersJson>> = zodSchema(
  workersJson,
  { io: "output" },
);

/**
 * Writes the workers' view as the dashboard answers it: dates as ISO text.
 *
 * @param view The view.
 * @returns Its JSON.
 */
export function toWorkersJson(view: WorkersView): z.infer<typeof workersJson> {
  return {
    workers: view.workers.map((w) => ({
      id: w.id,
      ...(w.host === undefined ? {} : { host: w.host }),
      ...(w.pid === undefined ? {} : { pid: w.pid }),
      queues: [...w.queues],
      startedAt: w.startedAt.toISOString(),
      heartbeatAt: w.heartbeatAt.toISOString(),
      expiresAt: w.expiresAt.toISOString(),
      runningJobs: w.runningJobs.map((j) => ({ ...j })),
    })),
    orphanedJobs: view.orphanedJobs.map((j) => ({ ...j })),
  };
}
