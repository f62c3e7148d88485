import type { Logger, QueuedJobStatus } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import type { EnqueueResult, QueuedJob } from "@kit/kernel/types";
import type {
  ClaimedJob,
  JobClaimParams,
  JobCompleteManyParams,
  JobFailParams,
  JobReportParams,
  JobStore,
  NewJob,
  ReportOutcome,
  StoredJob,
  TenantReach,
} from "../store/job_store.ts";
import {
  activityOf,
  checkJobActivityParams,
  checkJobPageLimit,
  decodeJobCursor,
  encodeJobCursor,
  type JobActivityKind,
  type JobActivityParams,
  type JobCountsParams,
  type JobPage,
  type JobPageParams,
  type JobQueueActivity,
  type JobQueueCounts,
  type JobView,
} from "../store/job_reads.ts";
import {
  claimedJobOf,
  JobRowReader,
  jobViewOf,
  jobViewWithHistoryOf,
  queuedJobOf,
  storedJobOf,
} from "./job_rows.ts";
import {
  checkWorkerHeartbeat,
  type JobRescueParams,
  type LiveWorker,
  type RescuedJob,
  type WorkerHeartbeatParams,
} from "../store/worker_registry.ts";
import { findJobByKey, findJobsByKeys, insertJob, insertJobs } from "./job_insert_statements.ts";
import { claimDueJobs, claimJobsWithEndedLeases, rescueJobs } from "./job_claim_statements.ts";
import { pruneJobsBeyondCount, pruneJobsFinishedBefore } from "./job_prune_statements.ts";
import { checkJobPruneParams, type JobPruneParams } from "../store/job_retention.ts";
import {
  cancelJob,
  completeJob,
  completeJobs,
  failJob,
  purgeFinishedJobs,
  releaseJob,
  reportJob,
  retryDeadJob,
} from "./job_attempt_statements.ts";
import {
  countJobs,
  findJob,
  jobActivity,
  listJobs,
  pageJobs,
  viewJob,
} from "./job_read_statements.ts";
import { deregisterWorker, heartbeatWorker, listWorkers } from "./worker_statements.ts";
import { jobsChannel } from "./job_columns.ts";
import { driverInSchema } from "./driver_in_schema.ts";
import type { JobSqlDriver, SqlQuery } from "./job_sql_driver.ts";
import { queryInUnit } from "./unit_database.ts";

/** The longest a busy queue goes without a claim that also takes the jobs whose lease ended. */
const sweepEveryMs = 1_000;

/** How an {@linkcode SqlJobStore} finds its tables and wakes its workers. */
export interface SqlJobStoreOptions {
  /**
   * The schema of `background_jobs` and `background_job_workers` (a plain identifier); default:
   * the connection's search path.
   */
  readonly schema?: string;
  /** `false`: idle workers poll instead of listening (default: listen where the driver can). */
  readonly listen?: boolean;
  /**
   * Where a driver that listens on a connection of its own (`pg`) logs losing it (default
   * `consoleLogger()`).
   */
  readonly logger?: Logger;
}

/**
 * Jobs on PostgreSQL through any driver ({@linkcode JobSqlDriver}: postgres.js, Drizzle, Knex), in
 * the table `background_jobs` of the connection's search path — the context's own schema. An
 * enqueue writes in the caller's transaction (a rolled-back command leaves no job); a claim takes
 * due jobs with `FOR UPDATE SKIP LOCKED` in one short statement of its own; a committed insert
 * notifies `kit_jobs`, so idle workers start at once where the driver listens.
 */
export class SqlJobStore implements JobStore {
  /** Writes join the caller's transaction. */
  readonly sharesTransaction = true;
  readonly #driver: JobSqlDriver;
  readonly #sweptAt = new Map<string, number>();

  /**
   * A store on this driver. `schema` names the schema of the tables (default: the connection's
   * search path). `listen: false` leaves idle workers to the poll interval instead of LISTEN,
   * which needs a connection of its own: for a database that serves one connection at a time
   * (PGlite through `pglite-socket`, as `deno task dev` runs it).
   */
  constructor(driver: JobSqlDriver, options: SqlJobStoreOptions = {}) {
    this.#driver = options.schema === undefined ? driver : inSchema(driver, options.schema);
    const listen = driver.listen;
    this.jobListen = listen === undefined || options.listen === false ? undefined : async (
      onJob,
    ) => await listen(jobsChannel, onJob);
  }

  /** Inserts in the unit's transaction; answers the kept id for a kept idempotency key. */
  async jobInsert(params: { job: NewJob; unit?: UnitOfWork }): Promise<EnqueueResult> {
    const query = this.#on(params.unit);
    const job = params.job;
    const inserted = await query(insertJob(job));
    if (inserted.length === 1) return { id: job.id };
    const key = {
      name: job.name,
      tenantId: job.tenantId ?? "",
      idempotencyKey: job.idempotencyKey!,
    };
    const [kept] = await query(findJobByKey(key));
    if (kept === undefined) {
      throw new Error(`Job '${job.name}' conflicted on its idempotency key but no job holds it`);
    }
    return { id: new JobRowReader(kept, "findJobByKey").text("id"), duplicate: true };
  }

  /**
   * Inserts many jobs in one statement; answers the kept id for each kept idempotency key (see
   * `insertJobs` for why the rows travel as one JSON document).
   */
  async jobInsertMany(
    params: { jobs: readonly NewJob[]; unit?: UnitOfWork },
  ): Promise<readonly EnqueueResult[]> {
    if (params.jobs.length === 0) return [];
    // One job: the single-row insert, a plainer statement than the JSON document's (no
    // recordset to plan, no CTE): a lone enqueue is what a use case sends most.
    if (params.jobs.length === 1) {
      return [await this.jobInsert({ ...params, job: params.jobs[0]! })];
    }
    const query = this.#on(params.unit);
    const rows = params.jobs.map((job) => ({
      id: job.id,
      name: job.name,
      queue: job.queue,
      payload: job.payload,
      actor: job.actor,
      tenant_id: job.tenantId ?? "",
      correlation_id: job.correlationId,
      traceparent: job.traceparent ?? null,
      subject: job.subject ?? null,
      idempotency_key: job.idempotencyKey ?? null,
      max_attempts: job.maxAttempts,
      run_at: job.runAt.toISOString(),
      created_at: job.createdAt.toISOString(),
    }));
    const inserted = await query(insertJobs(rows));
    const kept = new Set(inserted.map((row) => new JobRowReader(row, "insertJobs").text("id")));
    const missing = params.jobs.filter((job) => !kept.has(job.id));
    const existing = new Map<string, string>();
    if (missing.length > 0) {
      const keys = missing.map((j) => ({
        name: j.name,
        tenant_id: j.tenantId ?? "",
        idempotency_key: j.idempotencyKey ?? "",
      }));
      for (const row of await query(findJobsByKeys(keys))) {
        const read = new JobRowReader(row, "findJobsByKeys");
        const key = keyOf(read.text("name"), read.text("tenant_id"), read.text("idempotency_key"));
        existing.set(key, read.text("id"));
      }
    }
    return params.jobs.map((job) => {
      if (kept.has(job.id)) return { id: job.id };
      const id = existing.get(keyOf(job.name, job.tenantId ?? "", job.idempotencyKey ?? ""));
      if (id === undefined) {
        throw new Error(`Job '${job.name}' was neither inserted nor found by its idempotency key`);
      }
      return { id, duplicate: true };
    });
  }

  /**
   * Claims due jobs in one short statement; when there are none, or when the queue was last swept
   * a second ago or more (by `now`), claims with the statement that also takes the jobs whose
   * lease ended (and ends those on their last attempt). So a busy queue claims with the short one
   * (about half the planning and execution time), and no ended lease waits behind it over a
   * second.
   */
  async jobClaim(params: JobClaimParams): Promise<ClaimedJob[]> {
    const sweptAt = this.#sweptAt.get(params.queue) ?? -Infinity;
    const sweepDue = params.now.getTime() - sweptAt >= sweepEveryMs ||
      params.now.getTime() < sweptAt;
    if (!sweepDue) {
      const due = await this.#driver.query(claimDueJobs(params));
      if (due.length > 0) return due.map((row) => claimedJobOf(row, "claimDueJobs")).sort(byDue);
    }
    this.#sweptAt.set(params.queue, params.now.getTime());
    const rows = await this.#driver.query(claimJobsWithEndedLeases(params));
    return rows.map((row) => claimedJobOf(row, "claimJobsWithEndedLeases")).sort(byDue);
  }

  /**
   * Takes back running jobs whose lease ended, of every queue, in one statement
   * (`for update skip locked`: safe to run from every worker process at once).
   */
  async jobRescue(params: JobRescueParams): Promise<readonly RescuedJob[]> {
    const rows = await this.#driver.query(rescueJobs(params));
    return rows.map((row) => {
      const read = new JobRowReader(row, "rescueJobs");
      return {
        id: read.text("id"),
        queue: read.text("queue"),
        outcome: read.status() === "dead" ? "dead" : "waiting",
      };
    });
  }

  /** Registers the worker or refreshes it (table `background_job_workers`, migration 5). */
  async workerHeartbeat(params: WorkerHeartbeatParams): Promise<void> {
    checkWorkerHeartbeat(params);
    await this.#driver.query(heartbeatWorker(params));
  }

  /** Forgets the worker. */
  async workerDeregister(params: { id: string }): Promise<void> {
    await this.#driver.query(deregisterWorker(params.id));
  }

  /** The workers live at `now`, oldest first. */
  async workerList(params: { now: Date }): Promise<readonly LiveWorker[]> {
    return (await this.#driver.query(listWorkers(params.now))).map((row) => {
      const read = new JobRowReader(row, "listWorkers");
      const host = read.optionalText("host");
      const pid = read.optionalInteger("pid");
      const queues = read.json("queues");
      return {
        id: read.text("id"),
        ...(host === undefined ? {} : { host }),
        ...(pid === undefined ? {} : { pid }),
        queues: Array.isArray(queues) ? queues.map(String) : [],
        startedAt: read.date("started_at"),
        heartbeatAt: read.date("heartbeat_at"),
        expiresAt: read.date("expires_at"),
      };
    });
  }

  /** Marks the attempt's job succeeded. */
  async jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    return (await this.#driver.query(completeJob(params))).length === 1;
  }

  /** Marks many held jobs succeeded in one statement; answers, in order, which were held. */
  async jobCompleteMany(params: JobCompleteManyParams): Promise<readonly boolean[]> {
    if (params.jobs.length === 0) return [];
    const rows = await this.#driver.query(completeJobs(params));
    const done = new Set(rows.map((row) => new JobRowReader(row, "completeJobs").text("id")));
    return params.jobs.map((j) => done.has(j.id));
  }

  /** Records a failed attempt: waiting again at `retryAt`, or dead. */
  async jobFail(params: JobFailParams): Promise<boolean> {
    return (await this.#driver.query(failJob(params))).length === 1;
  }

  /** Gives the job back, its attempt not counted. */
  async jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    return (await this.#driver.query(releaseJob(params))).length === 1;
  }

  /** Extends the lease; keeps progress, and a checkpoint in the step's transaction when given. */
  async jobReport(params: JobReportParams): Promise<ReportOutcome> {
    const query = params.checkpoint === undefined ? this.#driver.query : this.#on(params.unit);
    const rows = await query(reportJob({
      id: params.id,
      leaseToken: params.leaseToken,
      leaseEnds: new Date(params.now.getTime() + params.leaseMs),
      progress: params.progress,
      checkpoint: params.checkpoint,
    }));
    return rows.length === 1 ? "ok" : "stale";
  }

  /** Cancels a waiting or running job of the reach, in the unit's transaction. */
  async jobCancel(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    return (await this.#on(params.unit)(cancelJob(params))).length === 1;
  }

  /** The job, never its payload. */
  async jobFind(params: { id: string; reach: TenantReach }): Promise<QueuedJob | undefined> {
    const [row] = await this.#driver.query(findJob(params));
    return row === undefined ? undefined : queuedJobOf(row, "findJob");
  }

  /** Revives a dead job: waiting, due now, attempts back to zero. */
  async jobRetryDead(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    return (await this.#on(params.unit)(retryDeadJob(params))).length === 1;
  }

  /** Deletes finished jobs finished before the instant. */
  async jobPurgeFinished(params: { before: Date }): Promise<number> {
    return (await this.#driver.query(purgeFinishedJobs(params.before))).length;
  }

  /**
   * Removes a bounded batch of one queue's finished jobs of one status: those too old, then those
   * beyond the count, one statement each (`for update skip locked`: safe from every worker).
   */
  async jobPrune(params: JobPruneParams): Promise<number> {
    checkJobPruneParams(params);
    const { queue, status, finishedBefore, keep } = params;
    let removed = 0;
    if (finishedBefore !== undefined) {
      removed += (await this.#driver.query(
        pruneJobsFinishedBefore({ queue, status, before: finishedBefore, limit: params.limit }),
      )).length;
    }
    if (keep !== undefined && removed < params.limit) {
      removed += (await this.#driver.query(
        pruneJobsBeyondCount({ queue, status, keep, limit: params.limit - removed }),
      )).length;
    }
    return removed;
  }

  /** The jobs of the reach, counted by queue and status in one statement. */
  async jobCounts(params: JobCountsParams): Promise<readonly JobQueueCounts[]> {
    const byQueue = new Map<string, Record<QueuedJobStatus, number>>();
    for (const row of await this.#driver.query(countJobs(params.reach))) {
      const read = new JobRowReader(row, "countJobs");
      const queue = read.text("queue");
      const counts = byQueue.get(queue) ??
        { waiting: 0, running: 0, succeeded: 0, dead: 0, cancelled: 0 };
      counts[read.status()] = read.integer("n");
      byQueue.set(queue, counts);
    }
    return [...byQueue.keys()].sort().map((queue) => ({ queue, ...byQueue.get(queue)! }));
  }

  /**
   * A page of the jobs of the reach, newest first: keyset pagination on `(created_at, id)`,
   * served by the indexes of migration 2.
   */
  async jobPage(params: JobPageParams): Promise<JobPage> {
    checkJobPageLimit(params.limit);
    const after = params.after === undefined ? undefined : decodeJobCursor(params.after);
    const search = params.search ?? {};
    const rows = await this.#driver.query(pageJobs({
      reach: params.reach,
      queue: params.queue,
      status: params.status,
      namePrefix: search.name,
      subject: search.subject,
      id: search.id,
      errorCode: search.errorCode,
      after: after === undefined
        ? undefined
        : { createdAt: new Date(after.createdAt), id: after.id },
    }, params.limit + 1));
    const jobs = rows.slice(0, params.limit).map((row) => jobViewOf(row, "pageJobs"));
    const last = jobs.at(-1);
    return rows.length > params.limit && last !== undefined
      ? { jobs, next: encodeJobCursor({ createdAt: last.createdAt.getTime(), id: last.id }) }
      : { jobs };
  }

  /**
   * The activity of the kept jobs of the reach, in one statement: jobs succeeded and dead by
   * `finished_at`, failed attempts by `last_error_at` (a job's last one), served by the indexes
   * on both (migration 3).
   */
  async jobActivity(params: JobActivityParams): Promise<readonly JobQueueActivity[]> {
    checkJobActivityParams(params);
    const since = params.since.getTime();
    const rows = await this.#driver.query(jobActivity({
      reach: params.reach,
      queue: params.queue,
      since: params.since,
      until: new Date(since + params.buckets * params.bucketMs),
      bucketMs: params.bucketMs,
    }));
    return activityOf(
      params,
      rows.map((row) => {
        const read = new JobRowReader(row, "jobActivity");
        return {
          queue: read.text("queue"),
          kind: read.text("kind") as JobActivityKind,
          at: since + read.integer("bucket") * params.bucketMs,
          n: read.integer("n"),
        };
      }),
    );
  }

  /** The job of the reach, everything but its payload. */
  async jobView(params: { id: string; reach: TenantReach }): Promise<JobView | undefined> {
    const [row] = await this.#driver.query(viewJob(params));
    return row === undefined ? undefined : jobViewWithHistoryOf(row, "viewJob");
  }

  /** Every job kept, oldest first. */
  async jobList(params: { queue?: string; status?: QueuedJobStatus } = {}): Promise<StoredJob[]> {
    const rows = await this.#driver.query(listJobs(params));
    return rows.map((row) => storedJobOf(row, "listJobs"));
  }

  /**
   * Calls `onJob(queue)` when a job is inserted or revived (LISTEN on `kit_jobs`); answers the
   * function that stops listening. Undefined when the driver does not listen, or was told not to.
   */
  readonly jobListen?: (onJob: (queue: string) => void) => Promise<() => Promise<void>>;

  /**
   * The query to write with: the driver's own outside a unit; inside one, the unit's transaction,
   * refused when the unit is on another database than the store's client (`queryInUnit`).
   */
  #on(unit: UnitOfWork | undefined): SqlQuery {
    if (unit === undefined) return this.#driver.query;
    const query = this.#driver.inUnit(unit);
    if (query === undefined) {
      throw new Error(
        `${this.#driver.storeName} needs a unit of work of its driver to write in it: compose the application with ${this.#driver.transactionsName}`,
      );
    }
    return queryInUnit(this.#driver, unit, query);
  }
}

const tables = /\bbackground_job(s|_workers)\b/g;

/** The driver whose statements name the tables of `schema`. */
function inSchema(driver: JobSqlDriver, schema: string): JobSqlDriver {
  return driverInSchema(
    driver,
    schema,
    "A job store's",
    (text, schema) => text.replace(tables, `${schema}.background_job$1`),
  );
}

function keyOf(name: string, tenantId: string, idempotencyKey: string): string {
  return `${name}\u0000${tenantId}\u0000${idempotencyKey}`;
}

function byDue(a: ClaimedJob, b: ClaimedJob): number {
  return a.runAt.getTime() - b.runAt.getTime() || (a.id < b.id ? -1 : 1);
}
