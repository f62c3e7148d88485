import type { Duration, QueuedJobStatus } from "@kit/kernel";
import { nextTick } from "../declaration/scheduled.ts";
import type { JobStore, TenantReach } from "../store/job_store.ts";
import type { ScheduleEntry } from "../worker/scheduler.ts";

/** The pages of a scheduled job's newest jobs read to find its last tick (50 jobs each). */
export const lastTickPages = 4;

/** A scheduled job as the dashboard shows it. */
export interface ScheduledJobView {
  /** The job's name (`<context>.<job-name>`). */
  readonly name: string;
  /** Its queue. */
  readonly queue: string;
  /** Its interval as declared in `@Scheduled({ every })` (`'5m'`, or ms). */
  readonly every: Duration;
  /** Its interval, in ms. */
  readonly everyMs: number;
  /**
   * The newest tick the scheduler enqueued that the store keeps and the work reaches (ticks
   * belong to no tenant: only work that reaches every tenant sees them); absent when none is
   * found in {@linkcode lastTickPages} pages of 50 of the job's newest jobs (never scheduled yet,
   * purged, or older).
   */
  readonly lastTick?: {
    /** The tick's instant. */
    readonly at: Date;
    /** The id of the tick's job. */
    readonly jobId: string;
    /** The status of the tick's job. */
    readonly status: QueuedJobStatus;
  };
  /** The first tick after now, on the application's clock. */
  readonly nextTick: Date;
}

/**
 * Each scheduled job of the application with its schedule, its last tick (the newest job the
 * scheduler enqueued for it, read through `jobPage`: the scheduler keys each tick's job
 * `tick:<instant>`) and its next tick, sorted by name.
 */
export async function readSchedules(
  store: JobStore,
  entries: readonly ScheduleEntry[],
  now: Date,
  reach: TenantReach,
): Promise<ScheduledJobView[]> {
  const views: ScheduledJobView[] = [];
  for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    const lastTick = await findLastTick(store, entry, reach);
    views.push({
      name: entry.name,
      queue: entry.queue,
      every: entry.every,
      everyMs: entry.everyMs,
      ...(lastTick === undefined ? {} : { lastTick }),
      nextTick: nextTick(now, entry.everyMs),
    });
  }
  return views;
}

async function findLastTick(
  store: JobStore,
  entry: ScheduleEntry,
  reach: TenantReach,
): Promise<ScheduledJobView["lastTick"]> {
  let after: string | undefined;
  for (let page = 0; page < lastTickPages; page++) {
    const found = await store.jobPage({
      reach,
      queue: entry.queue,
      search: { name: entry.name },
      limit: 50,
      ...(after === undefined ? {} : { after }),
    });
    const tick = found.jobs.find((job) =>
      job.name === entry.name && job.idempotencyKey?.startsWith("tick:") === true
    );
    if (tick !== undefined) {
      const at = new Date(tick.idempotencyKey!.slice("tick:".length));
      return {
        at: Number.isNaN(at.getTime()) ? tick.runAt : at,
        jobId: tick.id,
        status: tick.status,
      };
    }
    after = found.next;
    if (after === undefined) return undefined;
  }
  return undefined;
}
