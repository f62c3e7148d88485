import type {
  Actor,
  EnqueueResult,
  JsonValue,
  QueuedJob,
  QueuedJobStatus,
  UnitOfWork,
} from "@kit/kernel";
import {
  type ClaimedJob,
  type JobStore,
  type NewJob,
  reaches,
  type ReportOutcome,
  type StoredJob,
  type TenantReach,
  toQueuedJob,
} from "../store/job_store.ts";
import {
  cancelScript,
  claimScript,
  completeManyScript,
  completeScript,
  failScript,
  findScript,
  insertScript,
  listScript,
  purgeScript,
  releaseScript,
  reportScript,
  retryDeadScript,
} from "./job_scripts.ts";
import type { RedisScripting } from "./redis_scripting.ts";
import type {
  JobClaimParams,
  JobCompleteManyParams,
  JobFailParams,
  JobReportParams,
} from "../store/job_store.ts";

/**
 * Jobs on Redis: every operation one Lua script (atomic claim, lease, reports, idempotency), over
 * the scripting interface of `@upstash/redis` (HTTP) or a TCP client. Writes do not join the
 * caller's transaction: the queue writes after commit, and a failed write goes to `onLostJob`.
 * No blocking command is used (HTTP cannot block): idle workers poll, and over TCP they are also
 * woken at once by a subscription to the jobs enqueued.
 */
export class RedisJobStore implements JobStore {
  /** Writes wait for the commit. */
  readonly sharesTransaction = false;
  readonly #redis: RedisScripting;
  readonly #prefix: string;

  /**
   * A store on this connection, its keys under `prefix` (default `kit:jobs:`). Its workers are
   * woken as soon as a job is enqueued when the adapter can subscribe (`tcpScripting`): every
   * insert publishes its queues on `<prefix>enqueued`. `listen: false`, or an adapter that cannot
   * subscribe (`upstashScripting`: HTTP), leaves idle workers to the poll interval.
   */
  constructor(redis: RedisScripting, options: { prefix?: string; listen?: boolean } = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? "kit:jobs:";
    if (options.listen === false || redis.subscribe === undefined) this.jobListen = undefined;
  }

  /**
   * Calls `onJob(queue)` when a job is inserted or revived (SUBSCRIBE to `<prefix>enqueued`, on a
   * connection of its own); answers the function that stops listening. Absent when the adapter
   * cannot subscribe.
   */
  jobListen?: (onJob: (queue: string) => void) => Promise<() => Promise<void>> = (onJob) =>
    this.#redis.subscribe!(`${this.#prefix}enqueued`, onJob);

  /** Inserts a job; answers the kept id for a kept idempotency key. */
  async jobInsert(params: { job: NewJob; unit?: UnitOfWork }): Promise<EnqueueResult> {
    const [result] = await this.jobInsertMany({ jobs: [params.job] });
    return result!;
  }

  /** Inserts many jobs in one script, each kept once per idempotency key; answers in order. */
  async jobInsertMany(
    params: { jobs: readonly NewJob[]; unit?: UnitOfWork },
  ): Promise<readonly EnqueueResult[]> {
    if (params.jobs.length === 0) return [];
    const args: (string | number)[] = [this.#prefix];
    for (const job of params.jobs) args.push(...insertArgs(job));
    const reply = await insertScript.run(this.#redis, [], args) as unknown[];
    return params.jobs.map((_, i) =>
      Number(reply[2 * i + 1]) === 1
        ? { id: String(reply[2 * i]), duplicate: true }
        : { id: String(reply[2 * i]) }
    );
  }

  /** Claims due jobs and jobs whose lease ended, in one script. */
  async jobClaim(params: JobClaimParams): Promise<ClaimedJob[]> {
    const tokens = Array.from({ length: params.limit }, () => crypto.randomUUID());
    const rows = await claimScript.run(this.#redis, [], [
      this.#prefix,
      params.queue,
      params.now.getTime(),
      params.limit,
      params.defaultLeaseMs,
      JSON.stringify(params.leases),
      ...tokens,
    ]) as string[][];
    return rows.map((row) => {
      const hash = toHash(row);
      return { ...toStored(hash), attempt: Number(hash.at), leaseToken: hash.lt! };
    });
  }

  /** Marks a held job succeeded. */
  async jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const args = [this.#prefix, params.id, params.leaseToken, params.now.getTime()];
    return Number(await completeScript.run(this.#redis, [], args)) === 1;
  }

  /** Marks many held jobs succeeded in one script; answers, in order, which were held. */
  async jobCompleteMany(params: JobCompleteManyParams): Promise<readonly boolean[]> {
    if (params.jobs.length === 0) return [];
    const args: (string | number)[] = [this.#prefix, params.now.getTime()];
    for (const job of params.jobs) args.push(job.id, job.leaseToken);
    const reply = await completeManyScript.run(this.#redis, [], args) as unknown[];
    return params.jobs.map((_, i) => Number(reply[i]) === 1);
  }

  /** Records a failed attempt: waiting again, or dead. */
  async jobFail(params: JobFailParams): Promise<boolean> {
    const args = [
      this.#prefix,
      params.id,
      params.leaseToken,
      params.now.getTime(),
      params.errorCode,
      params.errorMessage,
      params.retryAt === undefined ? "" : params.retryAt.getTime(),
    ];
    return Number(await failScript.run(this.#redis, [], args)) === 1;
  }

  /** Gives a held job back uncounted. */
  async jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    return Number(
      await releaseScript.run(this.#redis, [], [this.#prefix, params.id, params.leaseToken]),
    ) === 1;
  }

  /**
   * Extends the lease with progress; a checkpoint given with a unit of work is written once that
   * unit commits (Redis cannot join the transaction).
   */
  async jobReport(params: JobReportParams): Promise<ReportOutcome> {
    const deferCheckpoint = params.checkpoint !== undefined && params.unit !== undefined;
    const args = (checkpoint: JsonValue | undefined) => [
      this.#prefix,
      params.id,
      params.leaseToken,
      params.now.getTime(),
      params.leaseMs,
      params.progress?.done ?? "",
      params.progress?.total ?? "",
      checkpoint === undefined ? "" : JSON.stringify(checkpoint),
    ];
    const ok = Number(
      await reportScript.run(
        this.#redis,
        [],
        args(deferCheckpoint ? undefined : params.checkpoint),
      ),
    ) === 1;
    if (ok && deferCheckpoint) {
      const checkpoint = params.checkpoint;
      params.unit!.whenCommitted(() => reportScript.run(this.#redis, [], args(checkpoint)));
    }
    return ok ? "ok" : "stale";
  }

  /** Cancels a waiting or running job of the reach. */
  async jobCancel(params: { id: string; reach: TenantReach; now: Date }): Promise<boolean> {
    const args = [this.#prefix, params.id, tenants(params.reach), params.now.getTime()];
    return Number(await cancelScript.run(this.#redis, [], args)) === 1;
  }

  /** The job, never its payload. */
  async jobFind(params: { id: string; reach: TenantReach }): Promise<QueuedJob | undefined> {
    const row = await findScript.run(this.#redis, [], [this.#prefix, params.id]) as string[];
    if (!Array.isArray(row) || row.length === 0) return undefined;
    const job = toStored(toHash(row));
    return reaches(params.reach, job.tenantId) ? toQueuedJob(job) : undefined;
  }

  /** Revives a dead job of the reach. */
  async jobRetryDead(params: { id: string; reach: TenantReach; now: Date }): Promise<boolean> {
    const args = [this.#prefix, params.id, tenants(params.reach), params.now.getTime()];
    return Number(await retryDeadScript.run(this.#redis, [], args)) === 1;
  }

  /** Deletes finished jobs finished before the instant. */
  async jobPurgeFinished(params: { before: Date }): Promise<number> {
    return Number(await purgeScript.run(this.#redis, [], [this.#prefix, params.before.getTime()]));
  }

  /** Every job kept, oldest first. */
  async jobList(params: { queue?: string; status?: QueuedJobStatus } = {}): Promise<StoredJob[]> {
    const rows = await listScript.run(this.#redis, [], [this.#prefix]) as string[][];
    return rows
      .filter((row) => row.length > 0)
      .map((row) => toStored(toHash(row)))
      .filter((job) => params.queue === undefined || job.queue === params.queue)
      .filter((job) => params.status === undefined || job.status === params.status);
  }
}

/** A job's arguments to the insert script: id, idem key, queue, due, created, fields. */
function insertArgs(job: NewJob): (string | number)[] {
  const idem = job.idempotencyKey === undefined
    ? ""
    : JSON.stringify([job.name, job.tenantId ?? "", job.idempotencyKey]);
  const fields: (string | number)[] = [
    "id",
    job.id,
    "n",
    job.name,
    "q",
    job.queue,
    "p",
    JSON.stringify(job.payload),
    "a",
    JSON.stringify(job.actor),
    "t",
    job.tenantId ?? "",
    "c",
    job.correlationId,
    "st",
    "waiting",
    "at",
    0,
    "mx",
    job.maxAttempts,
    "r",
    job.runAt.getTime(),
    "d",
    0,
    "ca",
    job.createdAt.getTime(),
  ];
  if (job.traceparent !== undefined) fields.push("tp", job.traceparent);
  if (job.subject !== undefined) fields.push("s", job.subject);
  if (job.idempotencyKey !== undefined) fields.push("k", job.idempotencyKey, "ik", idem);
  return [
    job.id,
    idem,
    job.queue,
    job.runAt.getTime(),
    job.createdAt.getTime(),
    fields.length,
    ...fields,
  ];
}

function tenants(reach: TenantReach): string {
  if (reach.tenantId === undefined) return "";
  return JSON.stringify([reach.tenantId, ...(reach.elevatedTenants ?? [])]);
}

function toHash(row: readonly unknown[]): Record<string, string> {
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < row.length; i += 2) hash[String(row[i])] = String(row[i + 1]);
  return hash;
}

function toStored(h: Record<string, string>): StoredJob {
  return {
    id: h.id!,
    name: h.n!,
    queue: h.q!,
    payload: JSON.parse(h.p!) as JsonValue,
    actor: JSON.parse(h.a!) as Actor,
    correlationId: h.c!,
    maxAttempts: Number(h.mx),
    runAt: new Date(Number(h.r)),
    createdAt: new Date(Number(h.ca)),
    status: h.st as QueuedJobStatus,
    attempts: Number(h.at),
    progress: h.tt === undefined
      ? { done: Number(h.d ?? 0) }
      : { done: Number(h.d ?? 0), total: Number(h.tt) },
    ...(h.t ? { tenantId: h.t } : {}),
    ...(h.tp === undefined ? {} : { traceparent: h.tp }),
    ...(h.s === undefined ? {} : { subject: h.s }),
    ...(h.k === undefined ? {} : { idempotencyKey: h.k }),
    ...(h.cp === undefined ? {} : { checkpoint: JSON.parse(h.cp) as JsonValue }),
    ...(h.ec === undefined ? {} : { lastErrorCode: h.ec }),
    ...(h.fa === undefined ? {} : { finishedAt: new Date(Number(h.fa)) }),
  };
}
