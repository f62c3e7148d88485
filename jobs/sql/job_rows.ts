import { type Actor, type QueuedJobStatus, queuedJobStatuses } from "@kit/kernel";
import type { JsonValue, QueuedJob } from "@kit/kernel/types";
import type { ClaimedJob, StoredJob } from "../store/job_store.ts";
import { type JobView, toJobView } from "../store/job_reads.ts";
import { appendAttempt, attemptHistoryOf, type JobAttempt } from "../store/job_attempts.ts";

/** A row as a driver answers it: column name to decoded value. */
export type JobRow = Readonly<Record<string, unknown>>;

/**
 * Reads the columns of a row, checking each value's type; a value of another type throws a
 * `TypeError` naming the statement and the column.
 */
export class JobRowReader {
  readonly #row: JobRow;
  readonly #statement: string;

  /**
   * A reader of `row`, answered by `statement` (named in errors).
   *
   * @param row The row postgres.js answered.
   * @param statement The statement that answered it, for error messages.
   */
  constructor(row: JobRow, statement: string) {
    this.#row = row;
    this.#statement = statement;
  }

  /** A `text` column, never null. */
  text(column: string): string {
    const value = this.#row[column];
    return typeof value === "string" ? value : this.#wrong(column, "text", value);
  }

  /** A `text` column that may be null (answered as `undefined`). */
  optionalText(column: string): string | undefined {
    const value = this.#row[column];
    return value === null ? undefined : this.text(column);
  }

  /** An `integer` column, never null. */
  integer(column: string): number {
    const value = this.#row[column];
    return Number.isSafeInteger(value) ? value as number : this.#wrong(column, "integer", value);
  }

  /** An `integer` column that may be null (answered as `undefined`). */
  optionalInteger(column: string): number | undefined {
    const value = this.#row[column];
    return value === null ? undefined : this.integer(column);
  }

  /**
   * A `timestamptz` column, never null: a `Date`, or PostgreSQL's ISO text of one (as Drizzle's
   * postgres.js driver answers it, `2026-05-01 08:00:00.5+00`).
   */
  date(column: string): Date {
    const value = this.#row[column];
    const date = typeof value === "string" ? dateOfText(value) : value;
    return date instanceof Date && !Number.isNaN(date.getTime())
      ? date
      : this.#wrong(column, "timestamptz", value);
  }

  /** A `timestamptz` column that may be null (answered as `undefined`). */
  optionalDate(column: string): Date | undefined {
    const value = this.#row[column];
    return value === null ? undefined : this.date(column);
  }

  /** A `jsonb` column (postgres.js decodes it; SQL null reads as `null`). */
  json(column: string): JsonValue {
    const value = this.#row[column];
    return value === undefined ? this.#wrong(column, "jsonb", value) : value as JsonValue;
  }

  /** A `jsonb` column whose SQL null reads as `undefined`. */
  optionalJson(column: string): JsonValue | undefined {
    const value = this.#row[column];
    return value === null ? undefined : this.json(column);
  }

  /** The `status` column: one of the job statuses. */
  status(column = "status"): QueuedJobStatus {
    const value = this.text(column);
    return (queuedJobStatuses as readonly string[]).includes(value)
      ? value as QueuedJobStatus
      : this.#wrong(column, `one of ${queuedJobStatuses.join(", ")}`, value);
  }

  /** The `actor` column: a JSON actor snapshot (id, kind, roles, tenants, attributes). */
  actor(column = "actor"): Actor {
    const value = this.json(column);
    const actor = value as Partial<Record<keyof Actor, unknown>> | null;
    const valid = typeof actor === "object" && actor !== null && !Array.isArray(actor) &&
      typeof actor.id === "string" &&
      (actor.kind === "user" || actor.kind === "service" || actor.kind === "system") &&
      isStringList(actor.roles) && isStringList(actor.tenants) &&
      typeof actor.attributes === "object" && actor.attributes !== null;
    return valid ? value as unknown as Actor : this.#wrong(column, "an actor snapshot", value);
  }

  #wrong(column: string, expected: string, value: unknown): never {
    const shown = value === undefined ? "no such column" : `got ${JSON.stringify(value)}`;
    throw new TypeError(
      `The row of '${this.#statement}' has a '${column}' that is not ${expected}: ${shown}`,
    );
  }
}

/** PostgreSQL's ISO output of a `timestamptz` (`2026-05-01 08:00:00.5+00`, `...+05:30`) read. */
function dateOfText(text: string): Date {
  const iso = text.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
  return new Date(iso);
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * A job as a store keeps it, from a row of the `background_jobs` columns (`payload` included).
 *
 * @param row A row with every column of `jobColumns`.
 * @param statement The statement that answered it, named when a column is not as expected.
 */
export function storedJobOf(row: JobRow, statement: string): StoredJob {
  const read = new JobRowReader(row, statement);
  return storedJobFrom(read, read.json("payload"));
}

/**
 * A claimed job, from a row of the claim statements (every column, the lease token set, and
 * `lease_ended` when the claim answers it).
 *
 * @param row A row answered by a claim.
 * @param statement The claim that answered it.
 */
export function claimedJobOf(row: JobRow, statement: string): ClaimedJob {
  const read = new JobRowReader(row, statement);
  const job = storedJobFrom(read, read.json("payload"));
  return {
    ...job,
    attempt: job.attempts,
    leaseToken: read.text("lease_token"),
    ...(row.lease_ended === true ? { leaseEnded: true } : {}),
  };
}

/**
 * A job for the operators' pages, from a row of every column but `payload`.
 *
 * @param row A row with the columns of `jobViewColumns`.
 * @param statement The statement that answered it.
 */
export function jobViewOf(row: JobRow, statement: string): JobView {
  return toJobView(storedJobFrom(new JobRowReader(row, statement), null));
}

/**
 * A job with its attempt history, from a row of `viewJob`. A success is not kept in
 * `attempt_history` (completions write nothing more): it is read from `finished_at`.
 *
 * @param row A row answered by `viewJob`.
 * @param statement The statement that answered it.
 */
export function jobViewWithHistoryOf(row: JobRow, statement: string): JobView {
  const read = new JobRowReader(row, statement);
  const job = storedJobFrom(read, null);
  const kept = read.json("attempt_history");
  let history: JobAttempt[] = attemptHistoryOf(Array.isArray(kept) ? kept : []);
  if (job.status === "succeeded" && job.finishedAt !== undefined) {
    const startedAt = read.optionalDate("attempt_started_at");
    history = appendAttempt(history, {
      attempt: job.attempts,
      outcome: "succeeded",
      ...(startedAt === undefined ? {} : { startedAt }),
      endedAt: job.finishedAt,
    });
  }
  return toJobView(job, history);
}

/**
 * What `find` answers of a job, from a row of `findJob`.
 *
 * @param row A row answered by `findJob`.
 * @param statement The statement that answered it.
 */
export function queuedJobOf(row: JobRow, statement: string): QueuedJob {
  const read = new JobRowReader(row, statement);
  const total = read.optionalInteger("progress_total");
  const lastErrorCode = read.optionalText("last_error_code");
  const tenantId = read.text("tenant_id");
  const subject = read.optionalText("subject");
  return {
    id: read.text("id"),
    name: read.text("name"),
    status: read.status(),
    attempts: read.integer("attempts"),
    progress: total === undefined
      ? { done: read.integer("progress_done") }
      : { done: read.integer("progress_done"), total },
    runAt: read.date("run_at"),
    ...(lastErrorCode === undefined ? {} : { lastErrorCode }),
    ...(tenantId === "" ? {} : { tenantId }),
    ...(subject === undefined ? {} : { subject }),
  };
}

function storedJobFrom(read: JobRowReader, payload: JsonValue): StoredJob {
  const total = read.optionalInteger("progress_total");
  const tenantId = read.text("tenant_id");
  const traceparent = read.optionalText("traceparent");
  const subject = read.optionalText("subject");
  const idempotencyKey = read.optionalText("idempotency_key");
  const checkpoint = read.optionalJson("checkpoint");
  const lastErrorCode = read.optionalText("last_error_code");
  const lastErrorAt = read.optionalDate("last_error_at");
  const finishedAt = read.optionalDate("finished_at");
  const workerId = read.optionalText("worker_id");
  return {
    id: read.text("id"),
    name: read.text("name"),
    queue: read.text("queue"),
    payload,
    actor: read.actor(),
    correlationId: read.text("correlation_id"),
    maxAttempts: read.integer("max_attempts"),
    runAt: read.date("run_at"),
    createdAt: read.date("created_at"),
    status: read.status(),
    attempts: read.integer("attempts"),
    progress: total === undefined
      ? { done: read.integer("progress_done") }
      : { done: read.integer("progress_done"), total },
    ...(tenantId === "" ? {} : { tenantId }),
    ...(traceparent === undefined ? {} : { traceparent }),
    ...(subject === undefined ? {} : { subject }),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    ...(checkpoint === undefined ? {} : { checkpoint }),
    ...(lastErrorCode === undefined ? {} : { lastErrorCode }),
    ...(lastErrorAt === undefined ? {} : { lastErrorAt }),
    ...(finishedAt === undefined ? {} : { finishedAt }),
    ...(workerId === undefined ? {} : { workerId }),
  };
}
