import { type Actor, AuthorizedCommand, AuthorizedQuery, Requires } from "@kit/kernel";
import type {
  JobPage,
  JobQueueActivity,
  JobQueueCounts,
  JobSearch,
  JobView,
} from "../store/job_reads.ts";
import type { QueuedJobStatus } from "@kit/kernel";
import { jobsPermissions } from "./permissions.ts";
import type { ScheduledJobView } from "./schedules.ts";
import type { OutboxBacklogView } from "./outbox_backlog.ts";
import type { WorkersView } from "./workers.ts";

/** Reads each queue's jobs by status (`jobs.read`). */
@Requires(jobsPermissions["jobs.read"])
export class ReadJobCounts extends AuthorizedQuery<readonly JobQueueCounts[]> {
  /** The query of the actor. */
  constructor(actor: Actor) {
    super(actor);
  }
}

/** What {@linkcode ReadJobActivity} answers: the window and each queue's buckets. */
export interface JobActivityWindow {
  /** The start of the first bucket. */
  readonly since: Date;
  /** The length of a bucket, in ms. */
  readonly bucketMs: number;
  /** The queues with activity in the window, by name. */
  readonly queues: readonly JobQueueActivity[];
}

/**
 * Reads each queue's activity of the last hour, minute by minute (the current minute last):
 * jobs succeeded, attempts failed, jobs dead (`jobs.read`).
 */
@Requires(jobsPermissions["jobs.read"])
export class ReadJobActivity extends AuthorizedQuery<JobActivityWindow> {
  /** The query of the actor, of one queue when given. */
  constructor(actor: Actor, readonly queue?: string) {
    super(actor);
  }
}

/** Reads a page of jobs, newest first (`jobs.read`). */
@Requires(jobsPermissions["jobs.read"])
export class ReadJobPage extends AuthorizedQuery<JobPage> {
  /** The query of the actor, narrowed as given. */
  constructor(
    actor: Actor,
    readonly page: {
      readonly queue?: string;
      readonly status?: QueuedJobStatus;
      readonly search?: JobSearch;
      readonly after?: string;
      readonly limit: number;
    },
  ) {
    super(actor);
  }
}

/** A job as the dashboard shows it: its view, and whether its worker is gone. */
export type DashboardJobView = JobView & {
  /** True when it is running and its worker's heartbeat expired (it will be rescued). */
  readonly workerGone?: boolean;
};

/** Reads one job, all but its payload, and whether its worker is gone (`jobs.read`). */
@Requires(jobsPermissions["jobs.read"], {
  resource: (query: ReadJob) => ({ type: "job", id: query.jobId }),
})
export class ReadJob extends AuthorizedQuery<DashboardJobView> {
  /** The query of the actor for the job. */
  constructor(actor: Actor, readonly jobId: string) {
    super(actor);
  }
}

/** Cancels a waiting or running job (`jobs.operate`). */
@Requires(jobsPermissions["jobs.operate"], {
  resource: (command: CancelJob) => ({ type: "job", id: command.jobId }),
})
export class CancelJob extends AuthorizedCommand<void> {
  /** The command of the actor for the job. */
  constructor(actor: Actor, readonly jobId: string) {
    super(actor);
  }
}

/** Revives a dead job: waiting, due now, attempts back to zero (`jobs.operate`). */
@Requires(jobsPermissions["jobs.operate"], {
  resource: (command: ReviveJob) => ({ type: "job", id: command.jobId }),
})
export class ReviveJob extends AuthorizedCommand<void> {
  /** The command of the actor for the job. */
  constructor(actor: Actor, readonly jobId: string) {
    super(actor);
  }
}

/** What reviving the dead jobs of a queue answers. */
export interface RevivedJobs {
  /** How many were revived. */
  readonly revived: number;
  /** True when dead jobs were left (more than one command revives): send it again. */
  readonly more: boolean;
}

/** Revives the dead jobs of a queue the work reaches, up to 1,000 (`jobs.operate`). */
@Requires(jobsPermissions["jobs.operate"], {
  resource: (command: ReviveDeadJobs) => ({ type: "queue", id: command.queue }),
})
export class ReviveDeadJobs extends AuthorizedCommand<RevivedJobs> {
  /** The command of the actor for the queue. */
  constructor(actor: Actor, readonly queue: string) {
    super(actor);
  }
}

/**
 * Deletes the succeeded, dead and cancelled jobs finished before an instant, of every tenant
 * (`jobs.operate`, and work that reaches every tenant: the system's).
 */
@Requires(jobsPermissions["jobs.operate"])
export class PurgeFinishedJobs extends AuthorizedCommand<number> {
  /** The command of the actor. */
  constructor(actor: Actor, readonly before: Date) {
    super(actor);
  }
}

/** Reads the application's scheduled jobs with their last and next ticks (`jobs.read`). */
@Requires(jobsPermissions["jobs.read"])
export class ReadScheduledJobs extends AuthorizedQuery<readonly ScheduledJobView[]> {
  /** The query of the actor. */
  constructor(actor: Actor) {
    super(actor);
  }
}

/**
 * Enqueues one run of a scheduled job now, as the actor's work, leaving its schedule as it is
 * (`jobs.operate`); answers the job's id.
 */
@Requires(jobsPermissions["jobs.operate"], {
  resource: (command: RunScheduledJob) => ({ type: "scheduled-job", id: command.name }),
})
export class RunScheduledJob extends AuthorizedCommand<string> {
  /** The command of the actor for the scheduled job of that name. */
  constructor(actor: Actor, readonly name: string) {
    super(actor);
  }
}

/**
 * Reads the outbox's undelivered events by handler: pending, the oldest pending's age, retrying,
 * dead (`jobs.read`). Declared when the dashboard is given the outbox.
 */
@Requires(jobsPermissions["jobs.read"])
export class ReadOutboxBacklog extends AuthorizedQuery<readonly OutboxBacklogView[]> {
  /** The query of the actor. */
  constructor(actor: Actor) {
    super(actor);
  }
}

/**
 * Reads the live workers (heartbeat not expired) with the running jobs each holds, and the
 * running jobs whose worker is gone (`jobs.read`; the jobs of the tenants the work reaches).
 */
@Requires(jobsPermissions["jobs.read"])
export class ReadWorkers extends AuthorizedQuery<WorkersView> {
  /** The query of the actor. */
  constructor(actor: Actor) {
    super(actor);
  }
}
