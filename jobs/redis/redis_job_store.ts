import { type Actor, consoleLogger, type QueuedJobStatus } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import type { EnqueueResult, JsonValue, QueuedJob } from "@kit/kernel/types";
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
  keptScript,
  listScript,
  pruneScript,
  purgeScript,
  releaseScript,
  reportScript,
  rescueScript,
  retryDeadScript,
  viewScript,
} from "./job_scripts.ts";
import { appendAttempt, attemptHistoryOf, truncateAttemptMessage } from "../store/job_attempts.ts";
import { activityScript, countScript, pageScript } from "./job_read_scripts.ts";
import { deregisterScript, heartbeatScript, workersScript } from "./worker_scripts.ts";
import {
  checkWorkerHeartbeat,
  type JobRescueParams,
  type LiveWorker,
  type RescuedJob,
  type WorkerHeartbeatParams,
} from "../store/worker_registry.ts";
import {
  activityOf,
  checkJobActivityParams,
  checkJobPageLimit,
  type JobActivityKind,
  jobActivityMinuteMs,
  type JobActivityParams,
  type JobCountsParams,
  type JobPage,
  type JobPageParams,
  type JobQueueActivity,
  type JobQueueCounts,
  type JobView,
  matchesJobSearch,
  toJobView,
} from "../store/job_reads.ts";
import { decodeJobCursor, encodeJobCursor } from "../store/job_reads.ts";
import { checkJobPruneParams, type JobPruneParams } from "../store/job_retention.ts";
import { type RedisRunOptions, RedisScript, type RedisScripting } from "./redis_scripting.ts";
import {
  checkRedisDurability,
  describeFindings,
  type DurabilityRequirement,
  RedisNotDurableError,
} from "./redis_durability.ts";
import { withinDeadline } from "./redis_unavailable.ts";
import { OperationDeadlines } from "./operation_deadlines.ts";
import type { RedisDurabilityMonitor } from "./redis_durability_monitor.ts";
import type {
  JobClaimParams,
  JobCompleteManyParams,
  JobFailParams,
  JobReportParams,
} from "../store/job_store.ts";

/** The most jobs one insert script takes. */
const insertBatch = 1_000;

/**
 * Jobs on Redis: every operation one Lua script (atomic claim, lease, reports, idempotency), over
 * the scripting interface of `@upstash/redis` (HTTP) or a TCP client. Writes do not join the
 * caller's transaction: the queue writes after commit, and a failed write goes to `onLostJob`
 * (inside a unit of work an enqueue checks that Redis answers, so that an outage fails the command
 * with `SERVICE_UNAVAILABLE`; a write that fails after commit is still possible — compose with
 * `OutboxJobStore` to lose none). Refuses, by default, a server that would lose jobs
 * (`requireDurability`), and fails every operation within `timeoutMs` while Redis is down.
 * No blocking command is used (HTTP cannot block): idle workers poll, and over TCP they are also
 * woken at once by a subscription to the jobs enqueued.
 */
export class RedisJobStore implements JobStore {
  /** Writes wait for the commit. */
  readonly sharesTransaction = false;
  readonly #redis: RedisScripting;
  readonly #prefix: string;
  /** The key every script declares: on a cluster, the node of its slot runs the script. */
  readonly #slotKey: readonly string[];
  readonly #requireDurability: DurabilityRequirement;
  readonly #timeoutMs: number;
  readonly #warn: (message: string) => void;
  readonly #monitor: RedisDurabilityMonitor | undefined;
  #durable: Promise<void> | undefined;
  /** The deadline of every operation (`timeoutMs`), on one timer. */
  readonly #deadlines: OperationDeadlines;
  #leasesOf: Readonly<Record<string, number>> | undefined;
  #leasesEncoded = "";

  /**
   * A store on this connection, its keys under `prefix` (default `kit:jobs:`). Its workers are
   * woken as soon as a job is enqueued when the adapter can subscribe (`tcpScripting`): every
   * insert publishes its queues on `<prefix>enqueued`. `listen: false`, or an adapter that cannot
   * subscribe (`upstashScripting`: HTTP), leaves idle workers to the poll interval.
   */
  constructor(redis: RedisScripting, options: RedisJobStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? (redis.cluster === true ? "{kit:jobs}:" : "kit:jobs:");
    if (redis.cluster === true) checkClusterPrefix(this.#prefix);
    this.#slotKey = [`${this.#prefix}all`];
    this.#requireDurability = options.requireDurability ?? "refuse";
    this.#timeoutMs = options.timeoutMs ?? 2_000;
    this.#deadlines = new OperationDeadlines(this.#timeoutMs);
    this.#warn = options.warn ??
      ((message) =>
        consoleLogger().log({
          level: "warn",
          component: "redis",
          code: "REDIS_NOT_DURABLE",
          message,
        }));
    this.#monitor = options.durability;
    if (options.listen === false || redis.subscribe === undefined) this.jobListen = undefined;
  }

  /**
   * Checks the server's settings now (see `RedisJobStoreOptions.requireDurability`); every
   * operation does it once before its first command. Rejects with `RedisNotDurableError` under
   * `"refuse"`, with `RedisUnavailableError` when Redis cannot be reached (checked again then).
   * With a `durability` monitor: its answer instead (`RedisUnavailableError` while not safe),
   * asked before each enqueue.
   */
  checkDurability(): Promise<void> {
    if (this.#monitor !== undefined) return this.#monitor.ready();
    if (this.#requireDurability === "off") return Promise.resolve();
    this.#durable ??= withinDeadline(
      "the durability check",
      this.#timeoutMs,
      () => checkRedisDurability(this.#redis),
    ).then(
      (findings) => {
        if (findings.length === 0) return;
        const known = findings.some((finding) => finding.unreadable !== true);
        if (this.#requireDurability === "refuse" && known) throw new RedisNotDurableError(findings);
        this.#warn(`kit jobs: ${describeFindings(findings)}`);
      },
      (error) => {
        this.#durable = undefined;
        throw error;
      },
    );
    return this.#durable;
  }

  async #run(
    operation: string,
    script: RedisScript,
    args: readonly (string | number)[],
  ): Promise<unknown> {
    if (this.#monitor === undefined || enqueues.has(operation)) await this.checkDurability();
    return await this.#deadlines.run(
      `job ${operation}`,
      () => script.run(this.#redis, this.#slotKey, args, replicatedRun(operation)),
    );
  }

  /**
   * Calls `onJob(queue)` when a job is inserted or revived (SUBSCRIBE to `<prefix>enqueued`, on a
   * connection of its own); answers the function that stops listening. Absent when the adapter
   * cannot subscribe.
   */
  jobListen?: (onJob: (queue: string) => void) => Promise<() => Promise<void>> = (onJob) =>
    this.#redis.subscribe!(`${this.#prefix}enqueued`, onJob);

  /**
   * Inserts a job, after commit inside a unit of work; answers the kept id with `duplicate: true`
   * for a key kept already.
   */
  async jobInsert(params: { job: NewJob; unit?: UnitOfWork }): Promise<EnqueueResult> {
    const [result] = await this.jobInsertMany({ jobs: [params.job], unit: params.unit });
    return result!;
  }

  /**
   * Inserts many jobs, each kept once per idempotency key; answers in order. The jobs go in
   * scripts of at most 1,000 each, one after another, so that no script holds Redis (a script
   * runs alone) or outlasts the command deadline; a failure part way leaves the earlier scripts'
   * jobs inserted, and a retry keeps each job once per idempotency key. Inside a unit of work the
   * keys are looked up at once (one script), so that a key kept already answers its job's id
   * with `duplicate: true`, and the others are written once the unit commits: of two units that
   * staged one key, the first to commit keeps it.
   */
  async jobInsertMany(
    params: { jobs: readonly NewJob[]; unit?: UnitOfWork | undefined },
  ): Promise<readonly EnqueueResult[]> {
    if (params.jobs.length === 0) return [];
    if (params.unit !== undefined) return await this.#stage(params.jobs, params.unit);
    if (params.jobs.length > insertBatch) {
      const results: EnqueueResult[] = [];
      for (let from = 0; from < params.jobs.length; from += insertBatch) {
        const batch = params.jobs.slice(from, from + insertBatch);
        for (const result of await this.jobInsertMany({ jobs: batch })) results.push(result);
      }
      return results;
    }
    const args: (string | number)[] = [this.#prefix];
    for (const job of params.jobs) args.push(...insertArgs(job));
    const reply = await this.#run("insert", insertScript, args) as unknown[];
    return params.jobs.map((_, i) =>
      Number(reply[2 * i + 1]) === 1
        ? { id: String(reply[2 * i]), duplicate: true }
        : { id: String(reply[2 * i]) }
    );
  }

  async #stage(jobs: readonly NewJob[], unit: UnitOfWork): Promise<readonly EnqueueResult[]> {
    const keys = [...new Set(jobs.map(idempotencyOf).filter((key) => key !== ""))];
    const taken = new Map<string, string>();
    if (keys.length === 0) await this.#run("reachable", reachableScript, []);
    else {
      const reply = await this.#run("kept", keptScript, [this.#prefix, ...keys]) as unknown[];
      keys.forEach((key, i) => {
        const id = reply[i];
        if (typeof id === "string" && id !== "") taken.set(key, id);
      });
    }
    const staged: NewJob[] = [];
    const results = jobs.map((job): EnqueueResult => {
      const key = idempotencyOf(job);
      const kept = key === "" ? undefined : taken.get(key);
      if (kept !== undefined) return { id: kept, duplicate: true };
      if (key !== "") taken.set(key, job.id);
      staged.push(job);
      return { id: job.id };
    });
    if (staged.length > 0) unit.whenCommitted(() => this.jobInsertMany({ jobs: staged }));
    return results;
  }

  /**
   * Claims due jobs and jobs whose lease ended, in one script. One random token per claim: each
   * job's lease token is it, a dot and the job's place in the claim (unique per attempt).
   */
  async jobClaim(params: JobClaimParams): Promise<ClaimedJob[]> {
    const rows = await this.#run("claim", claimScript, [
      this.#prefix,
      params.queue,
      params.now.getTime(),
      params.limit,
      params.defaultLeaseMs,
      this.#leasesJson(params.leases),
      params.workerId ?? "",
      crypto.randomUUID(),
    ]);
    const hashes = JSON.parse(String(rows)) as Record<string, string>[];
    return hashes.map((hash) => {
      const job = toStored(hash) as Mutable<ClaimedJob>;
      job.attempt = Number(hash.at);
      job.leaseToken = hash.lt!;
      if (hash.leaseEnded === "1") job.leaseEnded = true;
      return job;
    });
  }

  /** The leases as the claim script reads them: encoded once per leases object (a worker's). */
  #leasesJson(leases: Readonly<Record<string, number>>): string {
    if (this.#leasesOf !== leases) {
      this.#leasesEncoded = JSON.stringify(leases);
      this.#leasesOf = leases;
    }
    return this.#leasesEncoded;
  }

  /**
   * Takes back running jobs whose lease ended, of every queue that had a job, in one script
   * (atomic: rescues from many processes at once take each job once).
   */
  async jobRescue(params: JobRescueParams): Promise<readonly RescuedJob[]> {
    const flat = await this.#run("rescue", rescueScript, [
      this.#prefix,
      params.now.getTime(),
      params.limit,
    ]) as unknown[];
    const rescued: RescuedJob[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      rescued.push({
        id: String(flat[i]),
        queue: String(flat[i + 1]),
        outcome: String(flat[i + 2]) === "dead" ? "dead" : "waiting",
      });
    }
    return rescued;
  }

  /**
   * Registers the worker or refreshes it: `<prefix>worker:<id>`, expired by Redis twice the ttl
   * after the heartbeat, and its expiry in `<prefix>workers`, which decides who is live.
   */
  async workerHeartbeat(params: WorkerHeartbeatParams): Promise<void> {
    checkWorkerHeartbeat(params);
    const { worker, now, ttlMs } = params;
    const json = JSON.stringify({
      id: worker.id,
      ...(worker.host === undefined ? {} : { host: worker.host }),
      ...(worker.pid === undefined ? {} : { pid: worker.pid }),
      queues: [...worker.queues].sort(),
      startedAt: worker.startedAt.getTime(),
      heartbeatAt: now.getTime(),
      expiresAt: now.getTime() + ttlMs,
    });
    await this.#run("heartbeat", heartbeatScript, [
      this.#prefix,
      worker.id,
      json,
      now.getTime(),
      ttlMs,
    ]);
  }

  /** Forgets the worker. */
  async workerDeregister(params: { id: string }): Promise<void> {
    await this.#run("deregister", deregisterScript, [this.#prefix, params.id]);
  }

  /** The workers live at `now`, oldest first. */
  async workerList(params: { now: Date }): Promise<readonly LiveWorker[]> {
    const reply = await this.#run("workers", workersScript, [
      this.#prefix,
      params.now.getTime(),
    ]) as unknown[];
    const workers: LiveWorker[] = [];
    for (const item of reply) {
      const w = JSON.parse(String(item)) as Record<string, unknown>;
      workers.push({
        id: String(w.id),
        ...(typeof w.host === "string" ? { host: w.host } : {}),
        ...(typeof w.pid === "number" ? { pid: w.pid } : {}),
        queues: Array.isArray(w.queues) ? w.queues.map(String) : [],
        startedAt: new Date(Number(w.startedAt)),
        heartbeatAt: new Date(Number(w.heartbeatAt)),
        expiresAt: new Date(Number(w.expiresAt)),
      });
    }
    return workers.sort((a, b) =>
      a.startedAt.getTime() - b.startedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
    );
  }

  /** Marks a held job succeeded. */
  async jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const args = [this.#prefix, params.id, params.leaseToken, params.now.getTime()];
    return Number(await this.#run("complete", completeScript, args)) === 1;
  }

  /** Marks many held jobs succeeded in one script; answers, in order, which were held. */
  async jobCompleteMany(params: JobCompleteManyParams): Promise<readonly boolean[]> {
    if (params.jobs.length === 0) return [];
    const args: (string | number)[] = [this.#prefix, params.now.getTime()];
    for (const job of params.jobs) args.push(job.id, job.leaseToken);
    const reply = await this.#run("completeMany", completeManyScript, args) as unknown[];
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
      truncateAttemptMessage(params.errorMessage),
    ];
    return Number(await this.#run("fail", failScript, args)) === 1;
  }

  /** Gives a held job back uncounted. */
  async jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    return Number(
      await this.#run("release", releaseScript, [this.#prefix, params.id, params.leaseToken]),
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
      await this.#run(
        "report",
        reportScript,
        args(deferCheckpoint ? undefined : params.checkpoint),
      ),
    ) === 1;
    if (ok && deferCheckpoint) {
      const checkpoint = params.checkpoint;
      params.unit!.whenCommitted(() => this.#run("report", reportScript, args(checkpoint)));
    }
    return ok ? "ok" : "stale";
  }

  /** Cancels a waiting or running job of the reach. */
  async jobCancel(params: { id: string; reach: TenantReach; now: Date }): Promise<boolean> {
    const args = [this.#prefix, params.id, tenants(params.reach), params.now.getTime()];
    return Number(await this.#run("cancel", cancelScript, args)) === 1;
  }

  /** The job, never its payload. */
  async jobFind(params: { id: string; reach: TenantReach }): Promise<QueuedJob | undefined> {
    const row = await this.#run("find", findScript, [this.#prefix, params.id]) as string[];
    if (!Array.isArray(row) || row.length === 0) return undefined;
    const job = toStored(toHash(row));
    return reaches(params.reach, job.tenantId) ? toQueuedJob(job) : undefined;
  }

  /** Revives a dead job of the reach. */
  async jobRetryDead(params: { id: string; reach: TenantReach; now: Date }): Promise<boolean> {
    const args = [this.#prefix, params.id, tenants(params.reach), params.now.getTime()];
    return Number(await this.#run("retryDead", retryDeadScript, args)) === 1;
  }

  /** Deletes finished jobs finished before the instant. */
  async jobPurgeFinished(params: { before: Date }): Promise<number> {
    return Number(await this.#run("purge", purgeScript, [this.#prefix, params.before.getTime()]));
  }

  /**
   * Removes a bounded batch of one queue's finished jobs of one status (one script: atomic, so
   * pruners in many processes each remove a job once). Jobs finished before the upgrade that
   * brought retention are not in the per-queue sets it reads: `jobPurgeFinished` removes them.
   */
  async jobPrune(params: JobPruneParams): Promise<number> {
    checkJobPruneParams(params);
    const { queue, status, finishedBefore, keep, limit } = params;
    return Number(
      await this.#run("prune", pruneScript, [
        this.#prefix,
        queue,
        status,
        finishedBefore === undefined ? "" : finishedBefore.getTime(),
        keep === undefined ? "" : keep,
        limit,
      ]),
    );
  }

  /**
   * The jobs of the reach, counted by queue and status: every job kept is read, in scripts of
   * 5,000 jobs each (`countChunk`), so the counts are not one instant's while jobs are written.
   */
  async jobCounts(params: JobCountsParams): Promise<readonly JobQueueCounts[]> {
    const byQueue = new Map<string, Record<QueuedJobStatus, number>>();
    for (let start = 0;; start += countChunk) {
      const [read, flat] = await this.#run("counts", countScript, [
        this.#prefix,
        tenants(params.reach),
        start,
        countChunk,
      ]) as [number, unknown[]];
      for (let i = 0; i + 2 < flat.length; i += 3) {
        const queue = String(flat[i]);
        const counts = byQueue.get(queue) ??
          { waiting: 0, running: 0, succeeded: 0, dead: 0, cancelled: 0 };
        counts[String(flat[i + 1]) as QueuedJobStatus] += Number(flat[i + 2]);
        byQueue.set(queue, counts);
      }
      if (Number(read) < countChunk) break;
    }
    return [...byQueue.keys()].sort().map((queue) => ({ queue, ...byQueue.get(queue)! }));
  }

  /**
   * A page of the jobs of the reach, newest first, in one script that reads at most
   * `pageScanBudget` (5,000) jobs: when the filters match few of them, the page holds fewer
   * than `limit` jobs, even none, and a `next` to read on from. A search by id reads that job
   * alone.
   */
  async jobPage(params: JobPageParams): Promise<JobPage> {
    checkJobPageLimit(params.limit);
    const after = params.after === undefined ? undefined : decodeJobCursor(params.after);
    const search = params.search ?? {};
    if (search.id !== undefined) {
      const job = await this.jobView({ id: search.id, reach: params.reach });
      const listed = job !== undefined &&
        (params.queue === undefined || job.queue === params.queue) &&
        (params.status === undefined || job.status === params.status) &&
        matchesJobSearch(job, search) &&
        (after === undefined || job.createdAt.getTime() < after.createdAt ||
          (job.createdAt.getTime() === after.createdAt && job.id < after.id));
      return { jobs: listed ? [job] : [] };
    }
    const [more, score, id, rows] = await this.#run("page", pageScript, [
      this.#prefix,
      tenants(params.reach),
      params.queue ?? "",
      params.status ?? "",
      search.name ?? "",
      search.subject ?? "",
      search.errorCode ?? "",
      after === undefined ? "" : after.createdAt,
      after === undefined ? "" : after.id,
      params.limit,
      pageScanBudget,
    ]) as [number, string, string, string[][]];
    const jobs = rows.map((row) => toJobView(toStored(toHash(row))));
    return Number(more) === 1 && String(id) !== ""
      ? { jobs, next: encodeJobCursor({ createdAt: Number(score), id: String(id) }) }
      : { jobs };
  }

  /**
   * The activity of the reach from the counters of each minute (kept 25 hours), in one script
   * that reads a hash per minute of the window: every failed attempt counts, and purging jobs
   * leaves the counts as they are.
   */
  async jobActivity(params: JobActivityParams): Promise<readonly JobQueueActivity[]> {
    checkJobActivityParams(params);
    const flat = await this.#run("activity", activityScript, [
      this.#prefix,
      tenants(params.reach),
      params.queue ?? "",
      params.since.getTime(),
      (params.buckets * params.bucketMs) / jobActivityMinuteMs,
    ]) as unknown[];
    const counts: { queue: string; kind: JobActivityKind; at: number; n: number }[] = [];
    for (let i = 0; i + 3 < flat.length; i += 4) {
      counts.push({
        queue: String(flat[i]),
        at: Number(flat[i + 1]),
        kind: String(flat[i + 2]) as JobActivityKind,
        n: Number(flat[i + 3]),
      });
    }
    return activityOf(params, counts);
  }

  /** The job of the reach, everything but its payload, with its attempt history. */
  async jobView(params: { id: string; reach: TenantReach }): Promise<JobView | undefined> {
    const reply = await this.#run("view", viewScript, [this.#prefix, params.id]) as unknown[][];
    const [row, history] = Array.isArray(reply) ? reply : [];
    if (!Array.isArray(row) || row.length === 0) return undefined;
    const job = toStored(toHash(row));
    if (!reaches(params.reach, job.tenantId)) return undefined;
    const entries = Array.isArray(history)
      ? history.map((item) => typeof item === "string" ? JSON.parse(item) : item)
      : [];
    let attempts = attemptHistoryOf(entries);
    // A success is not kept in the list (completions write nothing more): read from the hash.
    const hash = toHash(row);
    if (job.status === "succeeded" && job.finishedAt !== undefined) {
      const started = Number(hash.sa);
      attempts = appendAttempt(attempts, {
        attempt: job.attempts,
        outcome: "succeeded",
        ...(hash.sa && Number.isFinite(started) ? { startedAt: new Date(started) } : {}),
        endedAt: job.finishedAt,
      });
    }
    return toJobView(job, attempts);
  }

  /** Every job kept, oldest first. */
  async jobList(params: { queue?: string; status?: QueuedJobStatus } = {}): Promise<StoredJob[]> {
    const rows = await this.#run("list", listScript, [this.#prefix]) as string[][];
    return rows
      .filter((row) => row.length > 0)
      .map((row) => toStored(toHash(row)))
      .filter((job) => params.queue === undefined || job.queue === params.queue)
      .filter((job) => params.status === undefined || job.status === params.status);
  }
}

/** The jobs one count script reads. */
const countChunk = 5_000;

/** The most jobs one page script reads. */
const pageScanBudget = 5_000;

/** Answers 1: an enqueue inside a unit of work fails in the command while Redis is down. */
const reachableScript = new RedisScript("return 1");

/** Options of a `RedisJobStore`. */
export interface RedisJobStoreOptions {
  /**
   * The prefix of its keys (default `kit:jobs:`; on a Redis Cluster client `{kit:jobs}:`). On a
   * cluster it must hold a hash tag (`{...}`, checked): all the store's keys hash to the tag's
   * slot, so every script runs on one node (the cluster gives fail-over, not write scaling of
   * one store).
   */
  readonly prefix?: string;
  /** `false`: idle workers poll, never subscribe. */
  readonly listen?: boolean;
  /**
   * What to do when the server would lose acknowledged jobs (append-only file off, `appendfsync
   * no`, an eviction policy other than `noeviction`), checked once before the first command.
   * Default `"refuse"`: a job store exists to keep work it acknowledged, and a Redis without
   * persistence loses every job on restart (all of them, silently, seen in production); a store
   * that only warned would let that reach production in a log line nobody reads. `"warn"` logs
   * the settings once and goes on (a cache-like queue whose jobs may be lost); `"off"` does not
   * look (tests on a throwaway server).
   */
  readonly requireDurability?: DurabilityRequirement;
  /**
   * Milliseconds every operation may take before it fails with `RedisUnavailableError`
   * (`SERVICE_UNAVAILABLE`, HTTP 503), default 2,000. Build TCP clients with
   * `failFastRedisOptions()` too, so that the client queues no command while disconnected.
   */
  readonly timeoutMs?: number;
  /** Where the `"warn"` line goes (default: a `warn` line `REDIS_NOT_DURABLE` of a console logger). */
  readonly warn?: (message: string) => void;
  /**
   * A monitor that watches the server continually (its persistence and its data) instead of the
   * one check before the first command: enqueues are refused with `RedisUnavailableError` (503)
   * while it is not `safe`; claims and reports go on. `requireDurability` is then the monitor's.
   */
  readonly durability?: RedisDurabilityMonitor;
}

/** The operations that enqueue, refused while the monitor says Redis is unsafe. */
const enqueues = new Set(["insert", "kept", "reachable", "retryDead"]);

/**
 * The writes acknowledged to a caller who then relies on them (an enqueue, a revival, a
 * cancellation): on an adapter that waits for replicas, answered once they have them. Claims,
 * reports and completions are not waited for: one lost in a fail-over runs the attempt again
 * (at least once), which every job already allows.
 */
const acknowledged: ReadonlyMap<string, RedisRunOptions> = new Map([
  ["insert", { replicated: true, operation: "enqueue" }],
  ["retryDead", { replicated: true, operation: "revive" }],
  ["cancel", { replicated: true, operation: "cancel" }],
]);

const unacknowledged: RedisRunOptions = { replicated: false };

/** How the store's operation runs: an acknowledged write waits for the replicas, named. */
function replicatedRun(operation: string): RedisRunOptions {
  return acknowledged.get(operation) ?? unacknowledged;
}

/**
 * Refuses, on a Redis Cluster, a prefix without a hash tag: every script touches many keys,
 * which must all hash to one slot, so the prefix must hold a non-empty `{tag}` (Redis hashes
 * only the tag of a key that has one).
 */
function checkClusterPrefix(prefix: string): void {
  const open = prefix.indexOf("{");
  const close = open < 0 ? -1 : prefix.indexOf("}", open + 1);
  if (close > open + 1) return;
  throw new TypeError(
    `RedisJobStore on a Redis Cluster: the prefix '${prefix}' has no hash tag, so its keys would ` +
      "hash to different slots and no script could run; give a prefix whose first '{' is followed " +
      "by a '}' with at least one character between, e.g. '{kit:jobs}:' (the default on a cluster)",
  );
}

/** The job's key under `idem:`, unique per name, tenant and idempotency key; '' without one. */
function idempotencyOf(job: NewJob): string {
  return job.idempotencyKey === undefined
    ? ""
    : JSON.stringify([job.name, job.tenantId ?? "", job.idempotencyKey]);
}

/** A job's arguments to the insert script: id, idem key, queue, due, created, fields. */
function insertArgs(job: NewJob): (string | number)[] {
  const idem = idempotencyOf(job);
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

/** A job of the store's own reads, filled in place (no object per optional field). */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function toStored(h: Record<string, string>): StoredJob {
  const job: Mutable<StoredJob> = {
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
  };
  if (h.t) job.tenantId = h.t;
  if (h.tp !== undefined) job.traceparent = h.tp;
  if (h.s !== undefined) job.subject = h.s;
  if (h.k !== undefined) job.idempotencyKey = h.k;
  if (h.cp !== undefined) job.checkpoint = JSON.parse(h.cp) as JsonValue;
  if (h.ec !== undefined) job.lastErrorCode = h.ec;
  if (h.ea !== undefined) job.lastErrorAt = new Date(Number(h.ea));
  if (h.fa !== undefined) job.finishedAt = new Date(Number(h.fa));
  if (h.w !== undefined) job.workerId = h.w;
  return job;
}
