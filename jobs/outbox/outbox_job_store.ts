import { consoleLogger, type Logger } from "@kit/kernel";
import {
  checkUnitDatabase,
  isOnUnitDatabase,
  type UnitDatabaseQuery,
  type UnitDatabaseWriter,
  type UnitOfWork,
} from "@kit/kernel/internal";
import type { EnqueueResult, JsonValue, QueuedJob } from "@kit/kernel/types";
import { transactionOf } from "@kit/kernel/postgres";
import type postgres from "postgres";
import type * as Contract from "../store/job_store.ts";
import { reaches, toQueuedJob } from "../store/job_store.ts";

type Sql = postgres.Sql | postgres.TransactionSql;

/** Options of an `OutboxJobStore`. */
export interface OutboxJobStoreOptions {
  /** Rows relayed per batch (default 100). */
  readonly batchSize?: number;
  /** Milliseconds between relays when no commit wakes it, the fallback (default 1,000). */
  readonly pollMs?: number;
  /**
   * Called with each relay that failed (Redis down): the rows stay, the next relay retries.
   * Default: the first failure after a success is logged (component `outbox.jobs`, code
   * `JOB_RELAY_FAILED`), and the recovery (`JOB_RELAY_RECOVERED`), never each retry.
   */
  readonly onRelayError?: (error: unknown) => void;
  /**
   * Whether the inner store may be written to now, and when it lost what it was given (a
   * `RedisDurabilityMonitor`): the relay waits while `ready()` rejects, and on each loss writes
   * again every job it relayed within `keepRelayedMs`.
   */
  readonly durability?: OutboxDeliveryGate;
  /**
   * Milliseconds a relayed job is kept in the outbox (marked relayed), so that a loss of the inner
   * store's data can be repaired by relaying it again (default 900,000: 15 minutes); a job due
   * later is kept until that long after it is due.
   */
  readonly keepRelayedMs?: number;
  /** Where the relay's failures, recoveries and replays are logged (default `consoleLogger()`). */
  readonly logger?: Logger;
}

/** What tells the relay whether it may deliver, and that delivered jobs were lost. */
export interface OutboxDeliveryGate {
  /** Resolves when the inner store may be written to; rejects otherwise. */
  ready(): Promise<void>;
  /** Calls `listener` each time the inner store lost (or may have lost) what it acknowledged. */
  onLoss(listener: () => void): void;
}

/**
 * A job store (Redis) fed through an outbox in PostgreSQL: an enqueue inside a unit of work
 * writes the job to `kit_job_outbox` in the unit's transaction (created by `migrateJobOutbox`),
 * so that the job exists exactly when the use case commits, whatever Redis is doing; a relay
 * writes committed rows to the inner store in batches — woken by each commit, and every `pollMs`
 * as a fallback — and marks them relayed in the same PostgreSQL transaction, only once the inner
 * store acknowledged them (a failed write rolls back: the rows stay, and the next relay retries).
 * A Redis outage delays jobs and loses none. With a `durability` gate (a
 * `RedisDurabilityMonitor`) the relay also waits while Redis is unsafe (persistence off, data
 * lost), and when Redis lost data or restarted it relays again the jobs it relayed within
 * `keepRelayedMs` (relayed rows are kept that long): the inner store keeps a job once per id, so a
 * job it still holds is left as it is and only the lost ones are written again (and run again:
 * jobs are at least once). Idempotency keys are kept by the outbox table (its rows with a key
 * stay). `jobFind` sees a job still in the outbox as `waiting`. Call `start()` to run the relay in
 * this process (once per application, or in each process: they share the rows), `stop()` at
 * shut-down. An enqueue in a unit of work on another database than `sql`'s is refused, with
 * nothing written (the relay, reading `sql`'s outbox, would never see the job): a unit opened on
 * this very client is written in unchecked; one on another client, once that pair of clients is
 * found on one database.
 */
export class OutboxJobStore implements Contract.JobStore {
  /** Enqueues join the caller's transaction (the outbox row). */
  readonly sharesTransaction = true;
  readonly #inner: Contract.JobStore;
  readonly #sql: postgres.Sql;
  readonly #writer: UnitDatabaseWriter;
  readonly #batchSize: number;
  readonly #pollMs: number;
  readonly #onRelayError: (error: unknown) => void;
  readonly #gate: OutboxDeliveryGate | undefined;
  readonly #keepRelayedMs: number;
  readonly #logger: Logger;
  #timer: ReturnType<typeof setInterval> | undefined;
  #relaying: Promise<number> | undefined;
  #again = false;
  #replay = false;
  #failing = false;
  #purgedAt = 0;

  /** The store `inner` (a `RedisJobStore`), fed through the outbox of the database `sql`. */
  constructor(inner: Contract.JobStore, sql: postgres.Sql, options: OutboxJobStoreOptions = {}) {
    this.#inner = inner;
    this.#sql = sql;
    this.#writer = {
      storeName: "OutboxJobStore",
      transactionsName: "PostgresTransactions",
      client: sql,
      query: queryOn(sql),
    };
    this.#batchSize = options.batchSize ?? 100;
    this.#pollMs = options.pollMs ?? 1_000;
    this.#logger = options.logger ?? consoleLogger();
    this.#onRelayError = options.onRelayError ?? ((error) => this.#failed(error));
    this.#gate = options.durability;
    this.#keepRelayedMs = options.keepRelayedMs ?? 900_000;
    this.#gate?.onLoss(() => {
      this.#replay = true;
      this.#wake();
    });
    if (inner.jobListen === undefined) this.jobListen = undefined;
  }

  #failed(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#logger.log({
      level: "warn",
      component: "outbox.jobs",
      code: "JOB_RELAY_FAILED",
      message:
        "The job outbox could not be relayed: its jobs wait in PostgreSQL, retried every poll",
      error,
    });
  }

  /** Starts relaying: at once, on each commit of an enqueue, and every `pollMs`. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#wake(), this.#pollMs);
    this.#wake();
  }

  /** Stops the relay; waits for a batch under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#relaying?.catch(() => undefined);
  }

  /**
   * Relays committed outbox rows to the inner store until none is left; answers how many. Rejects
   * when the inner store fails (the rows stay).
   */
  async relay(): Promise<number> {
    await this.#gate?.ready();
    if (this.#replay) await this.#replayKept();
    let total = 0;
    for (;;) {
      const count = await this.#relayBatch();
      total += count;
      if (count < this.#batchSize) break;
    }
    if (this.#failing) {
      this.#failing = false;
      this.#logger.log({
        level: "info",
        component: "outbox.jobs",
        code: "JOB_RELAY_RECOVERED",
        message: "The job outbox is relayed again",
        details: { relayed: total },
      });
    }
    if (Date.now() - this.#purgedAt > 60_000) await this.#purgeKept();
    return total;
  }

  /** Marks every job relayed within `keepRelayedMs` (or due later) to be relayed again. */
  async #replayKept(): Promise<void> {
    this.#replay = false;
    const keep = this.#keepRelayedMs;
    try {
      const rows = await this.#sql`
        update kit_job_outbox set relayed_at = null
        where relayed_at is not null
          and (relayed_at > now() - ${keep} * interval '1 millisecond'
            or (job->>'runAt')::timestamptz > now() - ${keep} * interval '1 millisecond')`;
      if (rows.count === 0) return;
      this.#logger.log({
        level: "warn",
        component: "outbox.jobs",
        code: "JOB_RELAY_REPLAYED",
        message: "The job store lost (or may have lost) jobs it acknowledged: the jobs relayed " +
          "recently are relayed again (a job it still holds is kept as it is)",
        details: { jobs: rows.count, keptMs: keep },
      });
    } catch (error) {
      this.#replay = true;
      throw error;
    }
  }

  /** Deletes relayed jobs (without an idempotency key) older than `keepRelayedMs`. */
  async #purgeKept(): Promise<void> {
    this.#purgedAt = Date.now();
    const keep = this.#keepRelayedMs;
    // In batches, so that no statement runs long; at most 100,000 rows a minute.
    for (let batch = 0; batch < 10; batch++) {
      const deleted = await this.#sql`
        delete from kit_job_outbox where seq in (
          select seq from kit_job_outbox
          where relayed_at < now() - ${keep} * interval '1 millisecond'
            and idempotency_key is null
            and (job->>'runAt')::timestamptz < now() - ${keep} * interval '1 millisecond'
          limit 10000)`;
      if (deleted.count < 10_000) return;
    }
  }

  #wake(): void {
    if (this.#relaying !== undefined) {
      this.#again = true;
      return;
    }
    this.#relaying = this.relay().catch((error) => {
      this.#onRelayError(error);
      return 0;
    }).finally(() => {
      this.#relaying = undefined;
      if (this.#again && this.#timer !== undefined) {
        this.#again = false;
        this.#wake();
      }
    });
  }

  async #relayBatch(): Promise<number> {
    let count = 0;
    await this.#sql.begin(async (tx) => {
      const rows = await tx<{ seq: string; job: SerializedJob; idempotency_key: string | null }[]>`
        select seq, job, idempotency_key from kit_job_outbox where relayed_at is null
        order by seq limit ${this.#batchSize} for update skip locked`;
      if (rows.length === 0) return;
      const jobs = rows.map((row) => toNewJob(row.job));
      if (this.#inner.jobInsertMany !== undefined) await this.#inner.jobInsertMany({ jobs });
      else for (const job of jobs) await this.#inner.jobInsert({ job });
      // Marked relayed only now that the inner store acknowledged them (a failure above rolls
      // back: they stay pending); kept, so that a loss of the inner store can be repaired.
      const seqs = rows.map((row) => row.seq);
      await tx`update kit_job_outbox set relayed_at = now() where seq in ${tx(seqs)}`;
      count = rows.length;
    });
    return count;
  }

  /** Writes the job to the outbox in the unit's transaction; without a unit, to the inner store. */
  async jobInsert(params: { job: Contract.NewJob; unit?: UnitOfWork }): Promise<EnqueueResult> {
    const [result] = await this.jobInsertMany({ jobs: [params.job], unit: params.unit });
    return result!;
  }

  /**
   * Writes the jobs to the outbox in the unit's transaction, each kept once per idempotency key
   * (a key kept answers its job's id with `duplicate: true`); relayed once the unit commits.
   * Refused, before any write, when the unit is on another database than this store's client.
   */
  async jobInsertMany(
    params: { jobs: readonly Contract.NewJob[]; unit?: UnitOfWork | undefined },
  ): Promise<readonly EnqueueResult[]> {
    if (params.unit === undefined) {
      return this.#inner.jobInsertMany !== undefined
        ? await this.#inner.jobInsertMany({ jobs: params.jobs })
        : await Promise.all(params.jobs.map((job) => this.#inner.jobInsert({ job })));
    }
    const sql = onUnit(params.unit);
    if (!isOnUnitDatabase(this.#writer, params.unit)) {
      await checkUnitDatabase(this.#writer, params.unit, queryOn(sql));
    }
    const results: EnqueueResult[] = [];
    for (const job of params.jobs) {
      const tenant = job.tenantId ?? "";
      const inserted = await sql`
        insert into kit_job_outbox (id, name, tenant_id, idempotency_key, job)
        values (${job.id}, ${job.name}, ${tenant}, ${job.idempotencyKey ?? null},
          ${sql.json(serialize(job) as unknown as postgres.JSONValue)})
        on conflict (name, tenant_id, idempotency_key) where idempotency_key is not null do nothing
        returning id`;
      if (inserted.length === 1) {
        results.push({ id: job.id });
        continue;
      }
      const [kept] = await sql<{ id: string }[]>`
        select id from kit_job_outbox
        where name = ${job.name} and tenant_id = ${tenant} and idempotency_key = ${job
        .idempotencyKey!}`;
      results.push({ id: kept!.id, duplicate: true });
    }
    params.unit.whenCommitted(() => this.#wake());
    return results;
  }

  /**
   * The job: `waiting` while it is still in the outbox (answered without Redis), else the inner
   * store's.
   */
  async jobFind(
    params: { id: string; reach: Contract.TenantReach },
  ): Promise<QueuedJob | undefined> {
    const [row] = await this.#sql<{ job: SerializedJob }[]>`
      select job from kit_job_outbox where id = ${params.id} and relayed_at is null`;
    if (row === undefined) return await this.#inner.jobFind(params);
    const job = toNewJob(row.job);
    if (!reaches(params.reach, job.tenantId)) return undefined;
    return toQueuedJob({ ...job, status: "waiting", attempts: 0, progress: { done: 0 } });
  }

  /**
   * Cancels a waiting or running job; inside a unit of work, once the unit commits (Redis cannot
   * join the transaction: a rolled-back command cancels nothing). A job still in the outbox is
   * relayed first.
   */
  async jobCancel(
    params: { id: string; reach: Contract.TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    const { unit, ...cancel } = params;
    if (unit !== undefined) {
      const job = await this.jobFind(cancel);
      if (job === undefined || (job.status !== "waiting" && job.status !== "running")) return false;
      unit.whenCommitted(() => this.jobCancel(cancel));
      return true;
    }
    if (await this.#pending(cancel.id)) await this.relay();
    return await this.#inner.jobCancel(cancel);
  }

  async #pending(id: string): Promise<boolean> {
    const rows = await this
      .#sql`select 1 from kit_job_outbox where id = ${id} and relayed_at is null`;
    return rows.length > 0;
  }

  /** The inner store's claim. */
  jobClaim(params: Contract.JobClaimParams): Promise<Contract.ClaimedJob[]> {
    return this.#inner.jobClaim(params);
  }

  /** The inner store's completion. */
  jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    return this.#inner.jobComplete(params);
  }

  /** The inner store's completions. */
  async jobCompleteMany(params: Contract.JobCompleteManyParams): Promise<readonly boolean[]> {
    if (this.#inner.jobCompleteMany !== undefined) return await this.#inner.jobCompleteMany(params);
    return await Promise.all(
      params.jobs.map((job) => this.#inner.jobComplete({ ...job, now: params.now })),
    );
  }

  /** The inner store's failure. */
  jobFail(params: Contract.JobFailParams): Promise<boolean> {
    return this.#inner.jobFail(params);
  }

  /** The inner store's release. */
  jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    return this.#inner.jobRelease(params);
  }

  /** The inner store's report. */
  jobReport(params: Contract.JobReportParams): Promise<Contract.ReportOutcome> {
    return this.#inner.jobReport(params);
  }

  /** Revives a dead job; inside a unit of work, once the unit commits. */
  async jobRetryDead(
    params: { id: string; reach: Contract.TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    const { unit, ...revive } = params;
    if (unit === undefined) return await this.#inner.jobRetryDead(revive);
    const job = await this.#inner.jobFind(revive);
    if (job?.status !== "dead") return false;
    unit.whenCommitted(() => this.#inner.jobRetryDead(revive));
    return true;
  }

  /** The inner store's purge. */
  jobPurgeFinished(params: { before: Date }): Promise<number> {
    return this.#inner.jobPurgeFinished(params);
  }

  /** The relayed jobs of the reach, counted (a job still in the outbox is not counted yet). */
  jobCounts(
    params: Parameters<Contract.JobStore["jobCounts"]>[0],
  ): ReturnType<Contract.JobStore["jobCounts"]> {
    return this.#inner.jobCounts(params);
  }

  /** A page of the relayed jobs of the reach (a job still in the outbox is not in it yet). */
  jobPage(
    params: Parameters<Contract.JobStore["jobPage"]>[0],
  ): ReturnType<Contract.JobStore["jobPage"]> {
    return this.#inner.jobPage(params);
  }

  /** The activity of the relayed jobs of the reach (the inner store's). */
  jobActivity(
    params: Parameters<Contract.JobStore["jobActivity"]>[0],
  ): ReturnType<Contract.JobStore["jobActivity"]> {
    return this.#inner.jobActivity(params);
  }

  /** A relayed job of the reach, everything but its payload. */
  jobView(
    params: Parameters<Contract.JobStore["jobView"]>[0],
  ): ReturnType<Contract.JobStore["jobView"]> {
    return this.#inner.jobView(params);
  }

  /** The inner store's jobs (jobs still in the outbox are not listed). */
  jobList(params?: Parameters<Contract.JobStore["jobList"]>[0]): Promise<Contract.StoredJob[]> {
    return this.#inner.jobList(params);
  }

  /** The inner store's wake-up, when it has one. */
  jobListen?: (onJob: (queue: string) => void) => Promise<() => Promise<void>> = (onJob) =>
    this.#inner.jobListen!(onJob);

  /** The inner store's registry of workers and rescue of ended leases (none when it has none). */
  workerHeartbeat: Contract.JobStore["workerHeartbeat"] = async (p) =>
    await this.#inner.workerHeartbeat?.(p);
  /** See `JobStore.workerDeregister`. */
  workerDeregister: Contract.JobStore["workerDeregister"] = async (p) =>
    await this.#inner.workerDeregister?.(p);
  /** See `JobStore.workerList`. */
  workerList: Contract.JobStore["workerList"] = async (p) =>
    await this.#inner.workerList?.(p) ?? [];
  /** See `JobStore.jobRescue`. */
  jobRescue: Contract.JobStore["jobRescue"] = async (p) => await this.#inner.jobRescue?.(p) ?? [];
  /** See `JobStore.jobPrune`. */
  jobPrune: Contract.JobStore["jobPrune"] = async (p) => await this.#inner.jobPrune?.(p) ?? 0;
}

type SerializedJob = Omit<Contract.NewJob, "runAt" | "createdAt"> & {
  runAt: string;
  createdAt: string;
};

function serialize(job: Contract.NewJob): SerializedJob {
  return { ...job, runAt: job.runAt.toISOString(), createdAt: job.createdAt.toISOString() };
}

function toNewJob(job: SerializedJob): Contract.NewJob {
  return {
    ...job,
    payload: job.payload as JsonValue,
    runAt: new Date(job.runAt),
    createdAt: new Date(job.createdAt),
  };
}

/** A query on `sql` for the check of a unit's database. */
function queryOn(sql: Sql): UnitDatabaseQuery {
  return async (statement) =>
    await sql.unsafe(statement.text, statement.params as postgres.ParameterOrJSON<never>[]);
}

function onUnit(unit: UnitOfWork): Sql {
  const transaction = transactionOf(unit);
  if (transaction === undefined) {
    throw new Error(
      "OutboxJobStore needs a Postgres unit of work to write in it: compose the application with PostgresTransactions",
    );
  }
  return transaction as Sql;
}
