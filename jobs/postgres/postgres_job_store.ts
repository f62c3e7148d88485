import type {
  Actor,
  EnqueueResult,
  JsonValue,
  QueuedJob,
  QueuedJobStatus,
  UnitOfWork,
} from "@kit/kernel";
import { transactionOf } from "@kit/kernel/postgres";
import type postgres from "postgres";
import type {
  ClaimedJob,
  JobStore,
  NewJob,
  ReportOutcome,
  StoredJob,
  TenantReach,
} from "../store/job_store.ts";
import {
  checkJobPageLimit,
  decodeJobCursor,
  encodeJobCursor,
  type JobCountsParams,
  type JobPage,
  type JobPageParams,
  type JobQueueCounts,
  type JobView,
  toJobView,
} from "../store/job_reads.ts";
import type {
  JobClaimParams,
  JobCompleteManyParams,
  JobFailParams,
  JobReportParams,
} from "../store/job_store.ts";

type Row = Record<string, unknown>;
type Sql = postgres.Sql | postgres.TransactionSql;

const columns = `id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
  idempotency_key, status, attempts, max_attempts, run_at, lease_token, progress_done, progress_total,
  checkpoint, last_error_code, created_at, finished_at`;

const viewed = columns.replace("payload, ", "");

const returned = columns.split(",").map((c) => `j.${c.trim()}`).join(", ");

/** The longest a busy queue goes without a claim that also takes the jobs whose lease ended. */
const sweepEveryMs = 1_000;

/** The channel the store notifies on commit of an insert (the payload is the queue). */
export const jobsChannel = "kit_jobs";

/**
 * Jobs on PostgreSQL (postgres.js), in the table `background_jobs` (created by `migrateJobs`) of
 * the connection's search path — the context's own schema. An enqueue writes in the caller's
 * transaction (a rolled-back command leaves no job); a claim takes due jobs with
 * `FOR UPDATE SKIP LOCKED` in one short statement of its own; a committed insert notifies
 * `kit_jobs`, so idle workers start at once.
 */
export class PostgresJobStore implements JobStore {
  /** Writes join the caller's transaction. */
  readonly sharesTransaction = true;
  readonly #sql: postgres.Sql;
  readonly #sweptAt = new Map<string, number>();

  /**
   * A store on this client. `listen: false` leaves idle workers to the poll interval instead of
   * LISTEN, which needs a connection of its own: for a database that serves one connection at a
   * time (PGlite through `pglite-socket`, as `deno task dev` runs it).
   */
  constructor(sql: postgres.Sql, options: { listen?: boolean } = {}) {
    this.#sql = sql;
    if (options.listen === false) this.jobListen = undefined;
  }

  /** Inserts in the unit's transaction; answers the kept id for a kept idempotency key. */
  async jobInsert(params: { job: NewJob; unit?: UnitOfWork }): Promise<EnqueueResult> {
    const sql = this.#on(params.unit);
    const job = params.job;
    const tenant = job.tenantId ?? "";
    const inserted = await sql`
      insert into background_jobs
        (id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
         idempotency_key, max_attempts, run_at, created_at)
      values (${job.id}, ${job.name}, ${job.queue}, ${sql.json(job.payload as postgres.JSONValue)},
        ${sql.json(job.actor as unknown as postgres.JSONValue)}, ${tenant}, ${job.correlationId},
        ${job.traceparent ?? null}, ${job.subject ?? null}, ${job.idempotencyKey ?? null},
        ${job.maxAttempts}, ${job.runAt}, ${job.createdAt})
      on conflict (name, tenant_id, idempotency_key) where idempotency_key is not null do nothing
      returning id, pg_notify(${jobsChannel}, queue)`;
    if (inserted.length === 1) return { id: job.id };
    const [kept] = await sql`
      select id from background_jobs
      where name = ${job.name} and tenant_id = ${tenant} and idempotency_key = ${job
      .idempotencyKey!}`;
    if (kept === undefined) {
      throw new Error(`Job '${job.name}' conflicted on its idempotency key but no job holds it`);
    }
    return { id: kept.id as string, duplicate: true };
  }

  /**
   * Inserts many jobs in one statement; answers the kept id for each kept idempotency key. The
   * rows travel as one JSON document (`jsonb_to_recordset`), never as `sql.array`: a fresh
   * postgres.js client does not know the array types before it fetched them, and its first array
   * parameter fails with "malformed array literal" (postgres.js issue 789).
   */
  async jobInsertMany(
    params: { jobs: readonly NewJob[]; unit?: UnitOfWork },
  ): Promise<readonly EnqueueResult[]> {
    if (params.jobs.length === 0) return [];
    const sql = this.#on(params.unit);
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
    // One statement (and one prepared plan) for any batch size, and one notification per queue
    // rather than per row.
    const inserted = await sql`
      with inserted as (
        insert into background_jobs
          (id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
           idempotency_key, max_attempts, run_at, created_at)
        select id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
          idempotency_key, max_attempts, run_at, created_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as r(id text, name text,
          queue text, payload jsonb, actor jsonb, tenant_id text, correlation_id text,
          traceparent text, subject text, idempotency_key text, max_attempts integer,
          run_at timestamptz, created_at timestamptz)
        on conflict (name, tenant_id, idempotency_key) where idempotency_key is not null do nothing
        returning id, queue
      ), notified as (
        select pg_notify(${jobsChannel}, queue) from (select distinct queue from inserted) q
      )
      select id, (select count(*) from notified) as notified from inserted`;
    const kept = new Set(inserted.map((row) => row.id as string));
    const missing = params.jobs.filter((job) => !kept.has(job.id));
    const existing = new Map<string, string>();
    if (missing.length > 0) {
      const keys = missing.map((j) => ({
        name: j.name,
        tenant_id: j.tenantId ?? "",
        idempotency_key: j.idempotencyKey ?? "",
      }));
      const found = await sql`
        select id, name, tenant_id, idempotency_key from background_jobs
        where (name, tenant_id, idempotency_key) in (
          select name, tenant_id, idempotency_key
          from jsonb_to_recordset(${JSON.stringify(keys)}::text::jsonb)
            as k(name text, tenant_id text, idempotency_key text))`;
      for (const row of found) {
        existing.set(
          `${row.name}\u0000${row.tenant_id}\u0000${row.idempotency_key}`,
          row.id as string,
        );
      }
    }
    return params.jobs.map((job) => {
      if (kept.has(job.id)) return { id: job.id };
      const id = existing.get(
        `${job.name}\u0000${job.tenantId ?? ""}\u0000${job.idempotencyKey ?? ""}`,
      );
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
    const due = sweepDue ? [] : await this.#claimDue(params);
    if (due.length > 0) return due;
    this.#sweptAt.set(params.queue, params.now.getTime());
    return await this.#claimWithEndedLeases(params);
  }

  async #claimDue(params: JobClaimParams): Promise<ClaimedJob[]> {
    const { queue, limit, now } = params;
    const rows = await this.#sql`
      update background_jobs j
      set status = 'running', attempts = j.attempts + 1, lease_token = gen_random_uuid()::text,
        lease_expires_at = ${now}::timestamptz + make_interval(secs =>
          coalesce((${
      this.#sql.json(params.leases as postgres.JSONValue)
    }::jsonb ->> j.name)::numeric,
            ${params.defaultLeaseMs}) / 1000.0)
      from (
        select id from background_jobs
        where queue = ${queue} and status = 'waiting' and run_at <= ${now}
        order by run_at, id
        limit ${limit}
        for update skip locked
      ) picked
      where j.id = picked.id
      returning ${this.#sql.unsafe(returned)}`;
    return rows.map(toClaimed).sort(byDue);
  }

  async #claimWithEndedLeases(params: JobClaimParams): Promise<ClaimedJob[]> {
    const { queue, limit, now } = params;
    const rows = await this.#sql`
      with exhausted as (
        select id from background_jobs
        where queue = ${queue} and status = 'running' and lease_expires_at <= ${now}
          and attempts >= max_attempts
        for update skip locked
      ), died as (
        update background_jobs j
        set status = 'dead', finished_at = ${now}, lease_token = null, lease_expires_at = null,
          last_error_code = 'ATTEMPTS_EXHAUSTED',
          last_error_message = 'The lease of the last attempt ended'
        from exhausted where j.id = exhausted.id
        returning j.id
      ), due as (
        select id, run_at from background_jobs
        where queue = ${queue} and status = 'waiting' and run_at <= ${now}
        order by run_at, id
        limit ${limit}
        for update skip locked
      ), expired as (
        select id, run_at from background_jobs
        where queue = ${queue} and status = 'running' and lease_expires_at <= ${now}
          and attempts < max_attempts
        order by lease_expires_at, id
        limit ${limit}
        for update skip locked
      ), picked as (
        select id from (select * from due union all select * from expired) c
        order by run_at, id
        limit ${limit}
      )
      update background_jobs j
      set status = 'running', attempts = j.attempts + 1, lease_token = gen_random_uuid()::text,
        lease_expires_at = ${now}::timestamptz + make_interval(secs =>
          coalesce((${
      this.#sql.json(params.leases as postgres.JSONValue)
    }::jsonb ->> j.name)::numeric,
            ${params.defaultLeaseMs}) / 1000.0)
      from picked where j.id = picked.id
      returning ${this.#sql.unsafe(returned)}, (select count(*) from died) as died`;
    return rows.map(toClaimed).sort(byDue);
  }

  /** Marks the attempt's job succeeded. */
  async jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const rows = await this.#sql`
      update background_jobs
      set status = 'succeeded', finished_at = ${params.now}, lease_token = null, lease_expires_at = null
      where id = ${params.id} and lease_token = ${params.leaseToken} and status = 'running'
      returning 1 as ok`;
    return rows.length === 1;
  }

  /** Marks many held jobs succeeded in one statement; answers, in order, which were held. */
  async jobCompleteMany(params: JobCompleteManyParams): Promise<readonly boolean[]> {
    if (params.jobs.length === 0) return [];
    const rows = await this.#sql`
      update background_jobs j
      set status = 'succeeded', finished_at = ${params.now}, lease_token = null, lease_expires_at = null
      from jsonb_to_recordset(${
      JSON.stringify(params.jobs.map((j) => ({ id: j.id, token: j.leaseToken })))
    }::text::jsonb) as c(id text, token text)
      where j.id = c.id and j.lease_token = c.token and j.status = 'running'
      returning j.id`;
    const done = new Set(rows.map((row) => row.id as string));
    return params.jobs.map((j) => done.has(j.id));
  }

  /** Records a failed attempt: waiting again at `retryAt`, or dead. */
  async jobFail(params: JobFailParams): Promise<boolean> {
    const retry = params.retryAt !== undefined;
    const rows = await this.#sql`
      update background_jobs
      set status = ${retry ? "waiting" : "dead"},
        run_at = ${retry ? params.retryAt! : this.#sql`run_at`},
        finished_at = ${retry ? null : params.now},
        lease_token = null, lease_expires_at = null,
        last_error_code = ${params.errorCode}, last_error_message = ${params.errorMessage}
      where id = ${params.id} and lease_token = ${params.leaseToken} and status = 'running'
      returning 1 as ok`;
    return rows.length === 1;
  }

  /** Gives the job back, its attempt not counted. */
  async jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const rows = await this.#sql`
      update background_jobs
      set status = 'waiting', attempts = attempts - 1, lease_token = null, lease_expires_at = null
      where id = ${params.id} and lease_token = ${params.leaseToken} and status = 'running'
      returning 1 as ok`;
    return rows.length === 1;
  }

  /** Extends the lease; keeps progress, and a checkpoint in the step's transaction when given. */
  async jobReport(params: JobReportParams): Promise<ReportOutcome> {
    const sql = params.checkpoint === undefined ? this.#sql : this.#on(params.unit);
    const progress = params.progress;
    const rows = await sql`
      update background_jobs
      set lease_expires_at = ${new Date(params.now.getTime() + params.leaseMs)},
        progress_done = ${progress ? progress.done : sql`progress_done`},
        progress_total = ${progress ? progress.total ?? null : sql`progress_total`},
        checkpoint = ${
      params.checkpoint === undefined
        ? sql`checkpoint`
        : sql.json(params.checkpoint as postgres.JSONValue)
    }
      where id = ${params.id} and lease_token = ${params.leaseToken} and status = 'running'
      returning 1 as ok`;
    return rows.length === 1 ? "ok" : "stale";
  }

  /** Cancels a waiting or running job of the reach, in the unit's transaction. */
  async jobCancel(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    const sql = this.#on(params.unit);
    const rows = await sql`
      update background_jobs
      set status = 'cancelled', finished_at = ${params.now}, lease_token = null, lease_expires_at = null
      where id = ${params.id} and status in ('waiting', 'running') and ${
      reachSql(sql, params.reach)
    }
      returning 1 as ok`;
    return rows.length === 1;
  }

  /** The job, never its payload. */
  async jobFind(params: { id: string; reach: TenantReach }): Promise<QueuedJob | undefined> {
    const [row] = await this.#sql`
      select id, name, status, attempts, progress_done, progress_total, last_error_code, tenant_id,
        subject, run_at
      from background_jobs where id = ${params.id} and ${reachSql(this.#sql, params.reach)}`;
    if (row === undefined) return undefined;
    return {
      id: row.id as string,
      name: row.name as string,
      status: row.status as QueuedJobStatus,
      attempts: row.attempts as number,
      progress: row.progress_total === null
        ? { done: row.progress_done as number }
        : { done: row.progress_done as number, total: row.progress_total as number },
      runAt: row.run_at as Date,
      ...(row.last_error_code === null ? {} : { lastErrorCode: row.last_error_code as string }),
      ...(row.tenant_id === "" ? {} : { tenantId: row.tenant_id as string }),
      ...(row.subject === null ? {} : { subject: row.subject as string }),
    };
  }

  /** Revives a dead job: waiting, due now, attempts back to zero. */
  async jobRetryDead(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    const sql = this.#on(params.unit);
    const rows = await sql`
      update background_jobs
      set status = 'waiting', attempts = 0, run_at = ${params.now}, finished_at = null
      where id = ${params.id} and status = 'dead' and ${reachSql(sql, params.reach)}
      returning 1 as ok, pg_notify(${jobsChannel}, queue)`;
    return rows.length === 1;
  }

  /** Deletes finished jobs finished before the instant. */
  async jobPurgeFinished(params: { before: Date }): Promise<number> {
    const rows = await this.#sql`
      delete from background_jobs
      where finished_at < ${params.before} and status in ('succeeded', 'dead', 'cancelled')
      returning 1 as ok`;
    return rows.length;
  }

  /** The jobs of the reach, counted by queue and status in one statement. */
  async jobCounts(params: JobCountsParams): Promise<readonly JobQueueCounts[]> {
    const rows = await this.#sql`
      select queue, status, count(*)::int as n from background_jobs
      where ${reachSql(this.#sql, params.reach)}
      group by queue, status`;
    const byQueue = new Map<string, Record<QueuedJobStatus, number>>();
    for (const row of rows) {
      const queue = row.queue as string;
      const counts = byQueue.get(queue) ??
        { waiting: 0, running: 0, succeeded: 0, dead: 0, cancelled: 0 };
      counts[row.status as QueuedJobStatus] = row.n as number;
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
    const sql = this.#sql;
    const after = params.after === undefined ? undefined : decodeJobCursor(params.after);
    const search = params.search ?? {};
    const conditions = [
      reachSql(sql, params.reach),
      ...(params.queue === undefined ? [] : [sql`queue = ${params.queue}`]),
      ...(params.status === undefined ? [] : [sql`status = ${params.status}`]),
      ...(search.name === undefined ? [] : [sql`starts_with(name, ${search.name})`]),
      ...(search.subject === undefined ? [] : [sql`subject = ${search.subject}`]),
      ...(search.id === undefined ? [] : [sql`id = ${search.id}`]),
      ...(search.errorCode === undefined ? [] : [sql`last_error_code = ${search.errorCode}`]),
      ...(after === undefined
        ? []
        : [sql`(created_at, id) < (${new Date(after.createdAt)}::timestamptz, ${after.id})`]),
    ];
    const where = conditions.reduce((all, condition) => sql`${all} and ${condition}`);
    const rows = await sql`
      select ${sql.unsafe(viewed)} from background_jobs
      where ${where}
      order by created_at desc, id desc
      limit ${params.limit + 1}`;
    const jobs = rows.slice(0, params.limit).map(toView);
    const last = jobs.at(-1);
    return rows.length > params.limit && last !== undefined
      ? { jobs, next: encodeJobCursor({ createdAt: last.createdAt.getTime(), id: last.id }) }
      : { jobs };
  }

  /** The job of the reach, everything but its payload. */
  async jobView(params: { id: string; reach: TenantReach }): Promise<JobView | undefined> {
    const [row] = await this.#sql`
      select ${this.#sql.unsafe(viewed)} from background_jobs
      where id = ${params.id} and ${reachSql(this.#sql, params.reach)}`;
    return row === undefined ? undefined : toView(row);
  }

  /** Every job kept, oldest first. */
  async jobList(params: { queue?: string; status?: QueuedJobStatus } = {}): Promise<StoredJob[]> {
    const rows = await this.#sql`
      select ${this.#sql.unsafe(columns)} from background_jobs
      where (${params.queue ?? null}::text is null or queue = ${params.queue ?? null})
        and (${params.status ?? null}::text is null or status = ${params.status ?? null})
      order by created_at, id`;
    return rows.map(toStored);
  }

  /**
   * Calls `onJob(queue)` when a job is inserted or revived (LISTEN on `kit_jobs`); answers the
   * function that stops listening.
   */
  jobListen?: (onJob: (queue: string) => void) => Promise<() => Promise<void>> = async (
    onJob,
  ) => {
    const subscription = await this.#sql.listen(jobsChannel, (queue) => onJob(queue));
    return () => subscription.unlisten();
  };

  #on(unit: UnitOfWork | undefined): Sql {
    if (unit === undefined) return this.#sql;
    const transaction = transactionOf(unit);
    if (transaction === undefined) {
      throw new Error(
        "PostgresJobStore needs a Postgres unit of work to write in it: compose the application with PostgresTransactions",
      );
    }
    return transaction;
  }
}

function reachSql(sql: Sql, reach: TenantReach): postgres.PendingQuery<postgres.Row[]> {
  if (reach.tenantId === undefined) return sql`true`;
  const tenants = [reach.tenantId, ...(reach.elevatedTenants ?? [])];
  // A JSON list, not sql.array: see jobInsertMany.
  return sql`tenant_id in (select jsonb_array_elements_text(${
    JSON.stringify(tenants)
  }::text::jsonb))`;
}

function toClaimed(row: Row): ClaimedJob {
  return {
    ...toStored(row),
    attempt: row.attempts as number,
    leaseToken: row.lease_token as string,
  };
}

function byDue(a: ClaimedJob, b: ClaimedJob): number {
  return a.runAt.getTime() - b.runAt.getTime() || (a.id < b.id ? -1 : 1);
}

function toView(row: Row): JobView {
  return toJobView(toStored({ ...row, payload: null }));
}

function toStored(row: Row): StoredJob {
  const total = row.progress_total as number | null;
  return {
    id: row.id as string,
    name: row.name as string,
    queue: row.queue as string,
    payload: row.payload as JsonValue,
    actor: row.actor as Actor,
    correlationId: row.correlation_id as string,
    maxAttempts: row.max_attempts as number,
    runAt: row.run_at as Date,
    createdAt: row.created_at as Date,
    status: row.status as QueuedJobStatus,
    attempts: row.attempts as number,
    progress: total === null
      ? { done: row.progress_done as number }
      : { done: row.progress_done as number, total },
    ...(row.tenant_id === "" ? {} : { tenantId: row.tenant_id as string }),
    ...(row.traceparent === null ? {} : { traceparent: row.traceparent as string }),
    ...(row.subject === null ? {} : { subject: row.subject as string }),
    ...(row.idempotency_key === null ? {} : { idempotencyKey: row.idempotency_key as string }),
    ...(row.checkpoint === null ? {} : { checkpoint: row.checkpoint as JsonValue }),
    ...(row.last_error_code === null ? {} : { lastErrorCode: row.last_error_code as string }),
    ...(row.finished_at === null ? {} : { finishedAt: row.finished_at as Date }),
  };
}
