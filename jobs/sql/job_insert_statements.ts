/**
 * The statements that insert jobs into `background_jobs` and find the jobs that hold an
 * idempotency key. Each answers a {@linkcode JobStatement}; the store runs it on the caller's
 * transaction or the client.
 *
 * @module
 */
import type { NewJob } from "../store/job_store.ts";
import { jobsChannel } from "./job_columns.ts";
import { type JobStatement, StatementParams } from "./statement.ts";

/**
 * Inserts one job; a kept idempotency key (the unique index `background_jobs_idempotency`,
 * the `on conflict` arbiter) inserts nothing and answers no row. Answers `id` of the inserted
 * job; `pg_notify` in `returning` queues a notification sent on commit.
 *
 * Locks: the new row; a concurrent insert of the same key waits on it until that transaction ends.
 *
 * @param job The job to insert.
 * @returns The statement: one row `{ id }`, or none on a kept key.
 */
export function insertJob(job: NewJob): JobStatement {
  const p = new StatementParams();
  const values = [
    p.add(job.id),
    p.add(job.name),
    p.add(job.queue),
    p.json(job.payload),
    p.json(job.actor),
    p.add(job.tenantId ?? ""),
    p.add(job.correlationId),
    p.add(job.traceparent ?? null),
    p.add(job.subject ?? null),
    p.add(job.idempotencyKey ?? null),
    p.add(job.maxAttempts),
    p.add(job.runAt),
    p.add(job.createdAt),
  ].join(", ");
  const channel = p.add(jobsChannel);
  return p.statement(
    "insertJob",
    `
    insert into background_jobs
      (id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
       idempotency_key, max_attempts, run_at, created_at)
    values (${values})
    on conflict (name, tenant_id, idempotency_key) where idempotency_key is not null do nothing
    returning id, pg_notify(${channel}, queue)`,
  );
}

/**
 * The id of the job that holds an idempotency key. Index: `background_jobs_idempotency`.
 * Locks nothing.
 *
 * @param key The job's name, tenant (`""` for none) and idempotency key.
 * @returns The statement: one row `{ id }`, or none.
 */
export function findJobByKey(
  key: { name: string; tenantId: string; idempotencyKey: string },
): JobStatement {
  const p = new StatementParams();
  const name = p.add(key.name);
  const tenant = p.add(key.tenantId);
  const idempotencyKey = p.add(key.idempotencyKey);
  return p.statement(
    "findJobByKey",
    `
    select id from background_jobs
    where name = ${name} and tenant_id = ${tenant} and idempotency_key = ${idempotencyKey}`,
  );
}

/** A row of `insertJobs`, as the JSON document carries it (snake case, dates as ISO text). */
export interface InsertRow {
  /** The job's id. */
  readonly id: string;
  /** The job's name. */
  readonly name: string;
  /** The job's queue. */
  readonly queue: string;
  /** The job's payload. */
  readonly payload: unknown;
  /** The snapshot of the actor that enqueued it. */
  readonly actor: unknown;
  /** The tenant, `""` for none. */
  readonly tenant_id: string;
  /** The correlation id. */
  readonly correlation_id: string;
  /** The W3C traceparent, if any. */
  readonly traceparent: string | null;
  /** The subject, if any. */
  readonly subject: string | null;
  /** The idempotency key, if any. */
  readonly idempotency_key: string | null;
  /** The most attempts. */
  readonly max_attempts: number;
  /** When it is due, ISO text. */
  readonly run_at: string;
  /** When it was enqueued, ISO text. */
  readonly created_at: string;
}

/**
 * Inserts many jobs in one statement (one prepared plan for any batch size), skipping kept
 * idempotency keys (`background_jobs_idempotency` arbitrates), and notifies once per queue
 * rather than per row. Answers `id` of each inserted job.
 *
 * The rows travel as one JSON document (`jsonb_to_recordset`), never as an array parameter: a
 * fresh postgres.js client does not know the array types before it fetched them, and its first
 * array parameter fails with "malformed array literal" (postgres.js issue 789).
 *
 * `notified` is a plain `select` CTE, and PostgreSQL evaluates such a CTE only when the query
 * reads it (unlike a data-modifying CTE, which always runs to completion): the
 * `(select count(*) from notified)` column, read by no one, is what makes `pg_notify` run.
 *
 * Locks: the new rows; an insert of a key another transaction is inserting waits for it.
 *
 * @param rows The jobs to insert (at least one).
 * @returns The statement: a row `{ id, notified }` per inserted job.
 */
export function insertJobs(rows: readonly InsertRow[]): JobStatement {
  const p = new StatementParams();
  const document = p.json(rows);
  const channel = p.add(jobsChannel);
  return p.statement(
    "insertJobs",
    `
    with inserted as (
      insert into background_jobs
        (id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
         idempotency_key, max_attempts, run_at, created_at)
      select id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
        idempotency_key, max_attempts, run_at, created_at
      from jsonb_to_recordset(${document}) as r(id text, name text,
        queue text, payload jsonb, actor jsonb, tenant_id text, correlation_id text,
        traceparent text, subject text, idempotency_key text, max_attempts integer,
        run_at timestamptz, created_at timestamptz)
      on conflict (name, tenant_id, idempotency_key) where idempotency_key is not null do nothing
      returning id, queue
    ), notified as (
      select pg_notify(${channel}, queue) from (select distinct queue from inserted) q
    )
    select id, (select count(*) from notified) as notified from inserted`,
  );
}

/**
 * The jobs that hold some idempotency keys (the keys as one JSON document, as in `insertJobs`).
 * Index: `background_jobs_idempotency`. Locks nothing.
 *
 * @param keys Each job's name, tenant (`""` for none) and idempotency key.
 * @returns The statement: a row `{ id, name, tenant_id, idempotency_key }` per job found.
 */
export function findJobsByKeys(
  keys: readonly { name: string; tenant_id: string; idempotency_key: string }[],
): JobStatement {
  const p = new StatementParams();
  const document = p.json(keys);
  return p.statement(
    "findJobsByKeys",
    `
    select id, name, tenant_id, idempotency_key from background_jobs
    where (name, tenant_id, idempotency_key) in (
      select name, tenant_id, idempotency_key
      from jsonb_to_recordset(${document})
        as k(name text, tenant_id text, idempotency_key text))`,
  );
}
