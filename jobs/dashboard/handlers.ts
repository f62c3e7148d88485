import { Clock, ForbiddenError, type Injectable, JobQueue } from "@kit/kernel";
import type { Outbox } from "@kit/kernel/outbox";
import type { Message, MessageClass } from "@kit/kernel/types";
import type { BackgroundJobs } from "../queue/background_jobs.ts";
import { InvalidJobCursorError, type JobPage, type JobView } from "../store/job_reads.ts";
import type { JobStore } from "../store/job_store.ts";
import { jobsDashboardErrors } from "./errors.ts";
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
  type RevivedJobs,
  ReviveJob,
  RunScheduledJob,
} from "./messages.ts";
import { readSchedules, type ScheduledJobView } from "./schedules.ts";
import { type OutboxBacklogView, readOutboxBacklog } from "./outbox_backlog.ts";
import { ScheduledJobs, type ScheduleEntry } from "../worker/scheduler.ts";
import { dashboardReach } from "./reach.ts";
import type { DashboardJobView, JobActivityWindow } from "./messages.ts";
import { readWorkers, workerGone, type WorkersView } from "./workers.ts";

/** The buckets of the activity the dashboard charts: the last hour, a minute each. */
export const activityBuckets = 60;
const minuteMs = 60_000;

/** The most dead jobs one `ReviveDeadJobs` revives. */
export const reviveBatchLimit = 1_000;

/** One handler of the dashboard, with its message and constructor dependencies. */
export interface DashboardHandler {
  /** The message it handles. */
  readonly message: MessageClass<Message>;
  /** The handler class. */
  readonly handler: abstract new (...args: never[]) => {
    handle(message: never): Promise<unknown>;
  };
  /** Its constructor dependencies. */
  readonly deps: readonly Injectable[];
}

/**
 * The handlers of the dashboard's messages on a store: reads go to the store with the reach of
 * the work, actions through the application's `JobQueue` (its reach and unit-of-work rules); the
 * outbox's backlog when an outbox is given.
 */
export function dashboardHandlers(store: JobStore, outbox?: Outbox): readonly DashboardHandler[] {
  const view = async (id: string): Promise<JobView> => {
    const job = await store.jobView({ id, reach: dashboardReach() });
    if (job === undefined) throw jobsDashboardErrors.JOB_NOT_FOUND.error(`No job '${id}'`);
    return job;
  };

  class ReadJobCountsHandler {
    handle(_query: ReadJobCounts) {
      return store.jobCounts({ reach: dashboardReach() });
    }
  }
  class ReadJobActivityHandler {
    constructor(private readonly clock: Clock) {}
    async handle(query: ReadJobActivity): Promise<JobActivityWindow> {
      const now = this.clock.now().getTime();
      const since = new Date(now - (now % minuteMs) - (activityBuckets - 1) * minuteMs);
      const queues = await store.jobActivity({
        reach: dashboardReach(),
        since,
        bucketMs: minuteMs,
        buckets: activityBuckets,
        ...(query.queue === undefined ? {} : { queue: query.queue }),
      });
      return { since, bucketMs: minuteMs, queues };
    }
  }
  class ReadJobPageHandler {
    async handle(query: ReadJobPage): Promise<JobPage> {
      try {
        return await store.jobPage({ ...query.page, reach: dashboardReach() });
      } catch (error) {
        if (error instanceof InvalidJobCursorError) {
          throw jobsDashboardErrors.INVALID_CURSOR.error(error.message);
        }
        throw error;
      }
    }
  }
  class ReadJobHandler {
    constructor(private readonly clock: Clock) {}
    async handle(query: ReadJob): Promise<DashboardJobView> {
      const job = await view(query.jobId);
      return (await workerGone(store, job, this.clock.now())) ? { ...job, workerGone: true } : job;
    }
  }
  class ReadWorkersHandler {
    constructor(private readonly clock: Clock) {}
    handle(_query: ReadWorkers): Promise<WorkersView> {
      return readWorkers(store, this.clock.now(), dashboardReach());
    }
  }
  class CancelJobHandler {
    constructor(private readonly queue: JobQueue) {}
    async handle(command: CancelJob): Promise<void> {
      const job = await view(command.jobId);
      if (job.status !== "waiting" && job.status !== "running") {
        throw jobsDashboardErrors.JOB_NOT_CANCELLABLE.error(`Job '${job.id}' is ${job.status}`);
      }
      if (!(await this.queue.cancel(job.id))) {
        throw jobsDashboardErrors.JOB_NOT_CANCELLABLE.error(`Job '${job.id}' has finished`);
      }
    }
  }
  class ReviveJobHandler {
    constructor(private readonly queue: JobQueue) {}
    async handle(command: ReviveJob): Promise<void> {
      const job = await view(command.jobId);
      if (job.status !== "dead" || !(await jobs(this.queue).retryDead(job.id))) {
        throw jobsDashboardErrors.JOB_NOT_DEAD.error(`Job '${job.id}' is ${job.status}`);
      }
    }
  }
  class ReviveDeadJobsHandler {
    constructor(private readonly queue: JobQueue) {}
    async handle(command: ReviveDeadJobs): Promise<RevivedJobs> {
      const reach = dashboardReach();
      const ids: string[] = [];
      let after: string | undefined;
      do {
        const page = await store.jobPage({
          reach,
          queue: command.queue,
          status: "dead",
          limit: 200,
          ...(after === undefined ? {} : { after }),
        });
        ids.push(...page.jobs.map((job) => job.id));
        after = page.next;
      } while (after !== undefined && ids.length <= reviveBatchLimit);
      const more = ids.length > reviveBatchLimit || after !== undefined;
      let revived = 0;
      for (const id of ids.slice(0, reviveBatchLimit)) {
        if (await jobs(this.queue).retryDead(id)) revived += 1;
      }
      return { revived, more };
    }
  }
  class PurgeFinishedJobsHandler {
    async handle(command: PurgeFinishedJobs): Promise<number> {
      const reach = dashboardReach();
      if (reach.tenantId !== undefined) {
        throw new ForbiddenError(
          "Purging deletes every tenant's finished jobs: only work that reaches every tenant may",
        );
      }
      return await store.jobPurgeFinished({ before: command.before });
    }
  }
  class ReadScheduledJobsHandler {
    constructor(
      private readonly entries: readonly ScheduleEntry[],
      private readonly clock: Clock,
    ) {}
    handle(_query: ReadScheduledJobs): Promise<ScheduledJobView[]> {
      return readSchedules(store, this.entries, this.clock.now(), dashboardReach());
    }
  }
  class RunScheduledJobHandler {
    constructor(
      private readonly queue: JobQueue,
      private readonly entries: readonly ScheduleEntry[],
      private readonly clock: Clock,
    ) {}
    async handle(command: RunScheduledJob): Promise<string> {
      const entry = this.entries.find((e) => e.name === command.name);
      if (entry === undefined) {
        throw jobsDashboardErrors.SCHEDULED_JOB_NOT_FOUND.error(
          `No scheduled job '${command.name}'`,
        );
      }
      // No idempotency key: the scheduler's own ticks (`tick:<instant>`) are left as they are.
      const enqueued = await this.queue.enqueue(entry.job, {
        tick: this.clock.now().toISOString(),
      });
      return enqueued.id;
    }
  }
  class ReadOutboxBacklogHandler {
    constructor(private readonly clock: Clock) {}
    handle(_query: ReadOutboxBacklog): Promise<OutboxBacklogView[]> {
      return readOutboxBacklog(outbox!, this.clock.now(), dashboardReach());
    }
  }
  return [
    { message: ReadJobCounts, handler: ReadJobCountsHandler, deps: [] },
    { message: ReadJobPage, handler: ReadJobPageHandler, deps: [] },
    { message: ReadJobActivity, handler: ReadJobActivityHandler, deps: [Clock] },
    { message: ReadJob, handler: ReadJobHandler, deps: [Clock] },
    { message: ReadWorkers, handler: ReadWorkersHandler, deps: [Clock] },
    { message: CancelJob, handler: CancelJobHandler, deps: [JobQueue] },
    { message: ReviveJob, handler: ReviveJobHandler, deps: [JobQueue] },
    { message: ReviveDeadJobs, handler: ReviveDeadJobsHandler, deps: [JobQueue] },
    { message: PurgeFinishedJobs, handler: PurgeFinishedJobsHandler, deps: [] },
    { message: ReadScheduledJobs, handler: ReadScheduledJobsHandler, deps: [ScheduledJobs, Clock] },
    {
      message: RunScheduledJob,
      handler: RunScheduledJobHandler,
      deps: [JobQueue, ScheduledJobs, Clock],
    },
    ...(outbox === undefined
      ? []
      : [{ message: ReadOutboxBacklog, handler: ReadOutboxBacklogHandler, deps: [Clock] }]),
  ] as unknown as readonly DashboardHandler[];
}

/** The application's queue as the jobs plugin provides it (it revives dead jobs). */
function jobs(queue: JobQueue): BackgroundJobs {
  const revivable = queue as Partial<BackgroundJobs>;
  if (typeof revivable.retryDead !== "function") {
    throw new TypeError("The jobs dashboard needs the JobQueue of jobsPlugin (it revives jobs)");
  }
  return queue as BackgroundJobs;
}
