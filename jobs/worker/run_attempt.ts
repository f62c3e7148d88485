import {
  type BackgroundJobExecution,
  type Clock,
  type ErrorReporter,
  type ExecutionContext,
  isRefusal,
  runInScope,
} from "@kit/kernel";
import { currentUnitOfWork } from "@kit/kernel/internal";
import type { JsonValue } from "@kit/kernel/types";
import type { BackgroundJobSettings } from "../declaration/background.ts";
import { exponentialBackoff } from "../declaration/backoff.ts";
import type { ClaimedJob, JobStore } from "../store/job_store.ts";
import {
  JobInterruptedError,
  JobLeaseLostError,
  JobTimeoutError,
  WorkerStoppedError,
} from "./job_errors.ts";
import type { AttemptTimer, AttemptTimers } from "./attempt_timers.ts";

/** How an attempt ended (the `status` label of `background_job_runs_total`). */
export type AttemptOutcome = "succeeded" | "retried" | "dead" | "released" | "interrupted";

/** A job this worker can run: its settings and its instance. */
export interface RunnableJob {
  /** The declared settings. */
  readonly settings: BackgroundJobSettings;
  /** The job instance, built by the composition root. */
  readonly instance: () => {
    run(payload: unknown, execution: BackgroundJobExecution): Promise<void>;
  };
}

/** What an attempt needs from its worker. */
export interface AttemptContext {
  /** The store the job was claimed from. */
  readonly store: JobStore;
  /** The clock of heartbeats, the lease and the timeout. */
  readonly clock: Clock;
  /** The worker's timers, on `clock`, of every attempt's heartbeats, lease watch and time-out. */
  readonly timers: AttemptTimers;
  /** Told of unexpected errors, failed heartbeats and lost leases. */
  readonly errorReporter: ErrorReporter;
  /** The jobs this worker can run, by name. */
  readonly jobs: ReadonlyMap<string, RunnableJob>;
  /** Aborted when the worker gives up waiting for its attempts (after the grace period). */
  readonly hardStop: AbortSignal;
  /** Told when a heartbeat fails and when one succeeds again. */
  readonly onHeartbeat?: (healthy: boolean) => void;
  /**
   * When the job's lease last started, in ms since the epoch: the time sent with the claim, or
   * with the last report that extended it (default: the start of the attempt).
   */
  readonly heldSince?: number;
  /** Completes a held job (batched by the worker); defaults to the store's `jobComplete`. */
  readonly complete?: (id: string, leaseToken: string) => Promise<boolean>;
  /**
   * Told once the job's run has ended, before its outcome is recorded: the worker frees the
   * attempt's slot then, so that the next claim overlaps the write of this outcome.
   */
  readonly onRunEnd?: () => void;
}

/** The end of an attempt. */
export interface AttemptResult {
  /** How it ended. */
  readonly outcome: AttemptOutcome;
  /** The error code kept, for failed attempts. */
  readonly errorCode?: string;
  /** What the run threw, if it threw. */
  readonly error?: unknown;
}

const unknownJobBackoff = exponentialBackoff();

/**
 * Runs one claimed job: in the job's execution context, with heartbeats every third of the
 * lease, the timeout, and the outcome recorded in the store under the attempt's lease token. A
 * lease that ends without a report having extended it (heartbeats failing) aborts the run with
 * {@linkcode JobLeaseLostError}: another worker may hold the job by then.
 */
export async function runAttempt(context: AttemptContext, job: ClaimedJob): Promise<AttemptResult> {
  const { store, clock } = context;
  const runnable = context.jobs.get(job.name);
  if (runnable === undefined) {
    const retry = job.attempt < job.maxAttempts;
    await store.jobFail({
      id: job.id,
      leaseToken: job.leaseToken,
      now: clock.now(),
      errorCode: "UNKNOWN_BACKGROUND_JOB",
      errorMessage: `This worker does not know the job name '${job.name}'`,
      ...(retry
        ? { retryAt: new Date(clock.now().getTime() + unknownJobBackoff(job.attempt)) }
        : {}),
    });
    return { outcome: retry ? "retried" : "dead", errorCode: "UNKNOWN_BACKGROUND_JOB" };
  }
  const { settings } = runnable;
  const run = new AbortController();
  const abort = (reason: Error) => {
    if (!run.signal.aborted) run.abort(reason);
  };
  const onHardStop = () => abort(new WorkerStoppedError());
  if (context.hardStop.aborted) onHardStop();
  else context.hardStop.addEventListener("abort", onHardStop, { once: true });

  const lease: Lease = { endsAt: (context.heldSince ?? clock.now().getTime()) + settings.leaseMs };
  const report = async (extra: {
    progress?: { done: number; total?: number };
    checkpoint?: JsonValue;
  }): Promise<void> => {
    const unit = extra.checkpoint === undefined ? undefined : currentUnitOfWork();
    const at = clock.now();
    const outcome = await store.jobReport({
      id: job.id,
      leaseToken: job.leaseToken,
      now: at,
      leaseMs: settings.leaseMs,
      ...extra,
      ...(unit ? { unit } : {}),
    });
    if (outcome !== "ok") {
      const error = new JobInterruptedError(job.id);
      abort(error);
      throw error;
    }
    lease.endsAt = Math.max(lease.endsAt, at.getTime() + settings.leaseMs);
  };

  // The attempt's deadlines, on the worker's shared timers: heartbeats until the outcome is
  // written, the lease watched while the run goes on (once it ended, the outcome's write answers
  // for the lease), the time-out.
  const deadlines = new AttemptDeadlines(context, job, settings.leaseMs, lease, abort);
  if (settings.timeoutMs !== undefined) {
    const timeoutMs = settings.timeoutMs;
    deadlines.timeout(timeoutMs, () => abort(new JobTimeoutError(job.id, timeoutMs)));
  }

  const startedAt = clock.now();
  const execution: BackgroundJobExecution = {
    jobId: job.id,
    attempt: job.attempt,
    actor: job.actor,
    signal: run.signal,
    checkpoint: job.checkpoint,
    reportProgress(progress) {
      if (!Number.isInteger(progress?.done) || progress.done < 0) {
        return Promise.reject(
          new RangeError(
            `reportProgress needs done as an integer >= 0, got ${String(progress?.done)}`,
          ),
        );
      }
      if (
        progress.total !== undefined && (!Number.isInteger(progress.total) || progress.total < 0)
      ) {
        return Promise.reject(
          new RangeError(
            `reportProgress needs total as an integer >= 0, got ${String(progress.total)}`,
          ),
        );
      }
      return report({ progress });
    },
    saveCheckpoint(value) {
      return report({ checkpoint: JSON.parse(JSON.stringify(value ?? null)) as JsonValue });
    },
  };
  const scope: ExecutionContext = {
    origin: "queue",
    actor: job.actor,
    correlationId: job.correlationId,
    causationId: job.id,
    ...(job.tenantId === undefined ? {} : { tenantId: job.tenantId }),
    ...(settings.timeoutMs === undefined
      ? {}
      : { deadline: new Date(startedAt.getTime() + settings.timeoutMs) }),
  };

  try {
    const running = runInScope(
      { execution: scope },
      () => runnable.instance().run(job.payload, execution),
    );
    running.catch(() => {}); // a run that ignores its signal finishes behind, unheard
    try {
      await Promise.race([running, aborted(run.signal)]);
    } finally {
      deadlines.runEnded();
      context.onRunEnd?.();
    }
    if (run.signal.aborted) throw run.signal.reason;
    const held = await recordOutcome(
      context,
      job,
      lease,
      () =>
        context.complete
          ? context.complete(job.id, job.leaseToken)
          : store.jobComplete({ id: job.id, leaseToken: job.leaseToken, now: clock.now() }),
    );
    return { outcome: held ? "succeeded" : "interrupted" };
  } catch (thrown) {
    const error = run.signal.aborted ? run.signal.reason : thrown;
    if (error instanceof JobInterruptedError) return { outcome: "interrupted", error };
    if (error instanceof WorkerStoppedError) {
      await recordOutcome(
        context,
        job,
        lease,
        () => store.jobRelease({ id: job.id, leaseToken: job.leaseToken, now: clock.now() }),
      );
      return { outcome: "released", error };
    }
    const errorCode = error instanceof JobTimeoutError
      ? error.code
      : isRefusal(error)
      ? error.code
      : "UNEXPECTED";
    if (errorCode === "UNEXPECTED") {
      context.errorReporter.report(error, {
        origin: "queue",
        details: { job: job.name, jobId: job.id, attempt: job.attempt },
      });
    }
    const retry = job.attempt < job.maxAttempts;
    const failedAt = clock.now();
    const retryAt = retry
      ? { retryAt: new Date(failedAt.getTime() + settings.backoff(job.attempt)) }
      : {};
    const held = await recordOutcome(context, job, lease, () =>
      store.jobFail({
        id: job.id,
        leaseToken: job.leaseToken,
        now: clock.now(),
        errorCode,
        errorMessage: error instanceof Error ? error.message : String(error),
        ...retryAt,
      }));
    if (!held) return { outcome: "interrupted", errorCode, error };
    return { outcome: retry ? "retried" : "dead", errorCode, error };
  } finally {
    deadlines.over();
    context.hardStop.removeEventListener("abort", onHardStop);
  }
}

/** The first wait before an outcome's write is tried again, doubled after each failure. */
const firstRecordRetryMs = 100;
/** The longest wait between two tries of an outcome's write. */
const lastRecordRetryMs = 5_000;

/**
 * Writes an attempt's outcome (success, failure, release), and writes it again while the store
 * cannot be reached (a restart, a lost connection): after 100 ms, doubled up to 5 s, for as long
 * as the attempt's lease holds, so that a job whose run ended during an outage is recorded once
 * the store is back, not run again after its lease. Once the lease has ended (another worker may
 * hold the job) or the worker stops hard, the write's error is thrown: the job is then claimed
 * again when its lease ends, at least once as ever. The first failure is reported, the rest are
 * not (one outage, one report).
 */
async function recordOutcome<T>(
  context: AttemptContext,
  job: ClaimedJob,
  lease: Lease,
  write: () => Promise<T>,
): Promise<T> {
  let wait = firstRecordRetryMs;
  for (let tries = 1;; tries++) {
    try {
      return await write();
    } catch (error) {
      const left = lease.endsAt - context.clock.now().getTime();
      if (left <= 0 || context.hardStop.aborted) throw error;
      if (tries === 1) {
        context.errorReporter.report(error, {
          origin: "queue",
          details: {
            stage: "record",
            job: job.name,
            jobId: job.id,
            retryingUntil: new Date(lease.endsAt).toISOString(),
          },
        });
      }
      try {
        await context.clock.sleep(Math.min(wait, left), context.hardStop);
      } catch {
        throw error;
      }
      wait = Math.min(wait * 2, lastRecordRetryMs);
    }
  }
}

/** The end of an attempt's lease as the store knows it, moved by every report it accepted. */
interface Lease {
  endsAt: number;
}

/**
 * An attempt's deadlines on the worker's {@linkcode AttemptTimers}: a heartbeat every third of
 * the lease (the next one scheduled once the last answered) until the attempt is over, the lease
 * watched until the run ends (aborted with {@linkcode JobLeaseLostError} once it ended without a
 * report moving it: from then on another worker may claim the job), and the time-out.
 */
class AttemptDeadlines {
  readonly #context: AttemptContext;
  readonly #job: ClaimedJob;
  readonly #leaseMs: number;
  readonly #every: number;
  readonly #lease: Lease;
  readonly #abort: (reason: Error) => void;
  #beat: AttemptTimer | undefined;
  #watch: AttemptTimer | undefined;
  #timeout: AttemptTimer | undefined;
  #over = false;

  constructor(
    context: AttemptContext,
    job: ClaimedJob,
    leaseMs: number,
    lease: Lease,
    abort: (reason: Error) => void,
  ) {
    this.#context = context;
    this.#job = job;
    this.#leaseMs = leaseMs;
    this.#every = Math.max(1, Math.floor(leaseMs / 3));
    this.#lease = lease;
    this.#abort = abort;
    this.#scheduleBeat();
    this.#watchLease();
  }

  /** Aborts the run after `ms` with what `fire` aborts it with. */
  timeout(ms: number, fire: () => void): void {
    const at = this.#context.clock.now().getTime() + ms;
    this.#timeout = this.#context.timers.schedule(at, fire);
  }

  /** The run ended: its lease is no longer watched. */
  runEnded(): void {
    if (this.#watch !== undefined) this.#context.timers.cancel(this.#watch);
    this.#watch = undefined;
  }

  /** The attempt is over (its outcome written or given up): every deadline is forgotten. */
  over(): void {
    this.#over = true;
    const { timers } = this.#context;
    this.runEnded();
    if (this.#beat !== undefined) timers.cancel(this.#beat);
    if (this.#timeout !== undefined) timers.cancel(this.#timeout);
    this.#beat = this.#timeout = undefined;
  }

  #scheduleBeat(): void {
    const at = this.#context.clock.now().getTime() + this.#every;
    this.#beat = this.#context.timers.schedule(at, () => void this.#heartbeat());
  }

  async #heartbeat(): Promise<void> {
    this.#beat = undefined;
    const context = this.#context, job = this.#job;
    try {
      const at = context.clock.now();
      const outcome = await context.store.jobReport({
        id: job.id,
        leaseToken: job.leaseToken,
        now: at,
        leaseMs: this.#leaseMs,
      });
      context.onHeartbeat?.(true);
      if (outcome !== "ok") {
        this.#abort(new JobInterruptedError(job.id));
        return;
      }
      this.#lease.endsAt = Math.max(this.#lease.endsAt, at.getTime() + this.#leaseMs);
    } catch (error) {
      context.onHeartbeat?.(false);
      context.errorReporter.report(error, {
        origin: "queue",
        details: { stage: "heartbeat", job: job.name, jobId: job.id },
      });
    }
    if (!this.#over) this.#scheduleBeat();
  }

  #watchLease(): void {
    const context = this.#context, job = this.#job;
    const endsAt = this.#lease.endsAt;
    if (endsAt > context.clock.now().getTime()) {
      this.#watch = context.timers.schedule(endsAt, () => this.#watchLease());
      return;
    }
    this.#watch = undefined;
    const error = new JobLeaseLostError(job.id, new Date(endsAt));
    context.errorReporter.report(error, {
      origin: "queue",
      details: { stage: "lease", job: job.name, jobId: job.id, attempt: job.attempt },
    });
    this.#abort(error);
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
