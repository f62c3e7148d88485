import { type Clock, consoleLogger, type ErrorReporter, type Logger } from "@kit/kernel";
import { context, type Meter, metrics, trace } from "@opentelemetry/api";
import { Rescuer } from "./rescuer.ts";
import { Pruner } from "./pruner.ts";
import type { JobRetention } from "./retention_policy.ts";
import { WorkerPresence } from "./worker_presence.ts";
import { JobTelemetry } from "../observability/job_telemetry.ts";
import { CompletionBatcher } from "./completion_batcher.ts";
import { AttemptTimers } from "./attempt_timers.ts";
import { QueueLoop, type QueueLoopHost } from "./queue_loop.ts";
import { Slots } from "./slots.ts";
import { Wakeup } from "./wakeup.ts";
import type { ClaimedJob, JobStore } from "../store/job_store.ts";
import {
  type AttemptContext,
  type AttemptResult,
  runAttempt,
  type RunnableJob,
} from "./run_attempt.ts";

const defaultLeaseMs = 30_000;

/** The settings of a {@linkcode Worker}. */
export interface WorkerSettings {
  /**
   * Jobs run at once per queue (default 10; `{ <context>: n }` per queue). A slot is free again
   * once its run ends: the outcome is written while the next job is claimed.
   */
  readonly concurrency?: number | Readonly<Record<string, number>>;
  /**
   * Jobs claimed ahead of free slots per queue, like graphile-worker's local queue: a number for
   * all, or `{ <context>: n }` (default 0, off: a claim takes free slots only). They wait in the
   * worker's local queue, so that the next job is at hand when a run ends and one claim takes
   * several jobs (more throughput on a busy queue). The price is fairness: a job claimed ahead is
   * under its lease (`find` shows it running, its attempt counted) though it has not started, and
   * another worker with free slots cannot take it, so jobs wait behind busy slots while a worker
   * sits idle, and the worker that claims first takes more than its share of the queue. One not
   * started within a third of its lease is given back uncounted and never run under that claim,
   * and so are those waiting when the worker stops. One held more than a tenth of its lease is
   * asked about first (a report, extending its lease), so that a job cancelled meanwhile does not
   * start. A worker that dies holding them leaves them to be claimed again once their lease ends,
   * as it does its running jobs.
   */
  readonly prefetch?: number | Readonly<Record<string, number>>;
  /** The wait between two polls of an idle queue (default 1000 ms). */
  readonly pollIntervalMs?: number;
  /** How long `stop()` waits for running attempts before aborting them (default 30 000 ms). */
  readonly graceMs?: number;
  /** The wait between two heartbeats of the worker in the store's registry (default 10 000 ms). */
  readonly heartbeatIntervalMs?: number;
  /**
   * How long the worker stays live after a heartbeat (default 30 000 ms, three heartbeats): a
   * worker killed shows as gone this long after its last heartbeat at most.
   */
  readonly heartbeatTtlMs?: number;
  /** The wait between two passes of the rescuer of ended leases (default 30 000 ms). */
  readonly rescueIntervalMs?: number;
  /**
   * How long finished jobs are kept, per status and queue, and how many at most: succeeded and
   * cancelled jobs 24 h, dead jobs 7 days by default, pruned by every worker process (no leader)
   * a batch at a time, each minute. `false` keeps them until an operator purges them (logged at
   * start, `RETENTION_OFF`).
   */
  readonly retention?: JobRetention | false;
}

/** Who a worker process is, as it registers: the entry point tells host and pid. */
export interface WorkerIdentity {
  /** Its id (default: a random UUID, new at each process run). */
  readonly id?: string;
  /** The host it runs on (`Deno.hostname()` in the entry point). */
  readonly host?: string;
  /** Its process id (`Deno.pid` in the entry point). */
  readonly pid?: number;
}

const rescueBatch = 500;

/** Told of every attempt's end (metrics, tests). */
export type AttemptListener = (job: ClaimedJob, result: AttemptResult, durationMs: number) => void;

/**
 * Claims due jobs of each queue it has jobs for, up to the queue's free slots (plus its prefetch
 * when one is set: jobs held in a local queue, started as slots free), and runs them. `stop()`
 * stops claiming, gives back the jobs of a claim in flight and those held unstarted, waits for
 * running attempts up to the grace period, then aborts them (their jobs go back uncounted).
 */
export class Worker {
  readonly #store: JobStore;
  readonly #clock: Clock;
  readonly #jobs: ReadonlyMap<string, RunnableJob>;
  readonly #reporter: ErrorReporter;
  readonly #queues: readonly string[];
  readonly #concurrency: (queue: string) => number;
  readonly #prefetch: (queue: string) => number;
  readonly #pollIntervalMs: number;
  readonly #graceMs: number;
  readonly #listeners: AttemptListener[] = [];
  readonly #leases: Readonly<Record<string, number>>;
  readonly #telemetry: JobTelemetry;
  readonly #completions: CompletionBatcher;
  /** The deadlines of every attempt (heartbeats, lease watches, time-outs) on one timer. */
  readonly #timers: AttemptTimers;
  #hardStop = new AbortController();
  #stopping = new AbortController();
  #loops: Promise<void>[] = [];
  #running = new Set<Promise<void>>();
  /** By queue, the attempts (lease tokens) whose last heartbeat failed. */
  readonly #failingHeartbeats = new Map<string, Set<string>>();
  /** By queue, the idle wait of its loop. */
  readonly #wakeups: ReadonlyMap<string, Wakeup>;
  #unlisten: (() => Promise<void>) | undefined;
  readonly #logger: Logger | undefined;
  readonly #id: string;
  readonly #presence: WorkerPresence;
  readonly #rescuer: Rescuer;
  readonly #pruner: Pruner | undefined;
  readonly #retentionLogger: Logger;

  /** Builds a worker for the jobs it knows. */
  constructor(options: {
    store: JobStore;
    clock: Clock;
    jobs: ReadonlyMap<string, RunnableJob>;
    errorReporter: ErrorReporter;
    settings?: WorkerSettings;
    telemetry?: JobTelemetry;
    /** Who this worker is in the store's registry (default: a random id, no host or pid). */
    identity?: WorkerIdentity;
    /**
     * Where failed attempts (one line per failure code), the heartbeat's and the rescuer's lines
     * go (default `consoleLogger()` for the heartbeat and the rescuer; failed attempts: none).
     */
    logger?: Logger;
    /** The meter of `kit.jobs.leases.expired` (default `metrics.getMeter("kit")`). */
    meter?: Meter;
  }) {
    this.#logger = options.logger;
    this.#telemetry = options.telemetry ?? new JobTelemetry();
    this.#completions = new CompletionBatcher(options.store, () => options.clock.now());
    this.#store = options.store;
    this.#clock = options.clock;
    this.#timers = new AttemptTimers(options.clock);
    this.#jobs = options.jobs;
    this.#reporter = options.errorReporter;
    this.#queues = [...new Set([...options.jobs.values()].map((j) => j.settings.queue))].sort();
    const concurrency = options.settings?.concurrency ?? 10;
    this.#concurrency = typeof concurrency === "number"
      ? () => concurrency
      : (queue) => concurrency[queue] ?? 10;
    const prefetch = options.settings?.prefetch ?? 0;
    this.#prefetch = typeof prefetch === "object"
      ? (queue) => prefetch[queue] ?? 0
      : () => prefetch;
    for (const queue of this.#queues) {
      const n = this.#concurrency(queue);
      if (!Number.isInteger(n) || n < 1) {
        throw new RangeError(
          `The concurrency of queue '${queue}' must be an integer from 1, got ${n}`,
        );
      }
      const p = this.#prefetch(queue);
      if (!Number.isInteger(p) || p < 0) {
        throw new RangeError(
          `The prefetch of queue '${queue}' must be an integer from 0, got ${p}`,
        );
      }
    }
    this.#leases = Object.fromEntries(
      [...options.jobs.values()].map((j) => [j.settings.name, j.settings.leaseMs]),
    );
    this.#pollIntervalMs = options.settings?.pollIntervalMs ?? 1_000;
    this.#graceMs = options.settings?.graceMs ?? 30_000;
    this.#wakeups = new Map(
      this.#queues.map((queue) => [queue, new Wakeup(this.#clock, this.#pollIntervalMs)]),
    );
    const settings = options.settings ?? {};
    const heartbeatIntervalMs = positive(
      "heartbeatIntervalMs",
      settings.heartbeatIntervalMs,
      10_000,
    );
    const heartbeatTtlMs = positive("heartbeatTtlMs", settings.heartbeatTtlMs, 30_000);
    if (heartbeatTtlMs <= heartbeatIntervalMs) {
      throw new RangeError(
        `heartbeatTtlMs (${heartbeatTtlMs}) must exceed heartbeatIntervalMs (${heartbeatIntervalMs})`,
      );
    }
    const identity = options.identity ?? {};
    const logger = options.logger ?? consoleLogger();
    this.#id = identity.id ?? crypto.randomUUID();
    this.#presence = new WorkerPresence({
      store: options.store,
      clock: options.clock,
      worker: {
        id: this.#id,
        ...(identity.host === undefined ? {} : { host: identity.host }),
        ...(identity.pid === undefined ? {} : { pid: identity.pid }),
        queues: this.#queues,
      },
      intervalMs: heartbeatIntervalMs,
      ttlMs: heartbeatTtlMs,
      logger,
    });
    this.#rescuer = new Rescuer({
      store: options.store,
      clock: options.clock,
      intervalMs: positive("rescueIntervalMs", settings.rescueIntervalMs, 30_000),
      limit: rescueBatch,
      logger,
      meter: options.meter ?? metrics.getMeter("kit"),
    });
    this.#retentionLogger = logger;
    const retention = settings.retention ?? {};
    this.#pruner = retention === false ? undefined : new Pruner({
      store: options.store,
      clock: options.clock,
      queues: this.#queues,
      retention,
      logger,
      meter: options.meter ?? metrics.getMeter("kit"),
    });
  }

  /** This worker's id in the store's registry (and in `StoredJob.workerId` of the jobs it holds). */
  get id(): string {
    return this.#id;
  }

  /** The rescuer of ended leases this worker runs while started (`pass()` runs one now). */
  get rescuer(): Rescuer {
    return this.#rescuer;
  }

  /**
   * The pruner of finished jobs this worker runs while started (`pass()` runs one now); absent
   * when `retention` is `false`.
   */
  get pruner(): Pruner | undefined {
    return this.#pruner;
  }

  /** The queues this worker consumes: the contexts of the jobs it knows. */
  get queues(): readonly string[] {
    return this.#queues;
  }

  /** Tells the listener of every attempt's end. */
  onAttempt(listener: AttemptListener): void {
    this.#listeners.push(listener);
  }

  /**
   * Starts one claim loop per queue, woken at once by stores that notify (a notification wakes
   * the loop of its queue).
   */
  async start(): Promise<void> {
    if (this.#loops.length > 0) return;
    this.#stopping = new AbortController();
    this.#hardStop = new AbortController();
    if (this.#store.jobListen !== undefined) {
      // Only the loop of the queue told: a job of one queue makes no other claim.
      const wakeups = this.#wakeups;
      this.#unlisten = await this.#store.jobListen((queue) => wakeups.get(queue)?.wake());
    }
    this.#loops = this.#queues.map((queue) => this.#loop(queue));
    await this.#presence.start();
    this.#rescuer.start();
    if (this.#pruner !== undefined) this.#pruner.start();
    else {
      this.#retentionLogger.log({
        level: "warn",
        component: "jobs.pruner",
        code: "RETENTION_OFF",
        message: "retention is off: finished jobs are kept until an operator purges them",
        details: { queues: this.#queues },
      });
    }
  }

  /** Wakes idle loops now (a job was enqueued on a store that can tell). */
  wake(): void {
    for (const wakeup of this.#wakeups.values()) wakeup.wake();
  }

  /** Stops claiming, waits for attempts up to the grace period, then aborts them. */
  async stop(): Promise<void> {
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.();
    this.#stopping.abort();
    this.wake();
    await Promise.all(this.#loops);
    this.#loops = [];
    if (this.#running.size > 0) {
      const grace = new AbortController();
      await Promise.race([
        Promise.all(this.#running),
        this.#clock.sleep(this.#graceMs, grace.signal).catch(() => {}),
      ]);
      grace.abort();
      this.#hardStop.abort();
      await Promise.all(this.#running);
    }
    this.#timers.close();
    await this.#rescuer.stop();
    await this.#pruner?.stop();
    await this.#presence.stop();
  }

  /**
   * Runs, one after another, every job due now in every queue, until none is due; then throws
   * the first error an attempt threw. For tests on the test clock.
   */
  async runDue(): Promise<number> {
    let ran = 0;
    let firstError: unknown;
    let claimed: ClaimedJob[];
    try {
      do {
        claimed = [];
        for (const queue of this.#queues) {
          const claimedAt = this.#clock.now().getTime();
          const jobs = await this.#claim(queue, 100);
          claimed.push(...jobs);
          for (const job of jobs) {
            const result = await this.#attempt(job, claimedAt);
            ran++;
            if (result.error !== undefined && firstError === undefined) firstError = result.error;
          }
        }
      } while (claimed.length > 0);
    } finally {
      // Not started: no attempt is left, and no timer may outlive the call (stop() ends it else).
      if (this.#loops.length === 0) this.#timers.close();
    }
    if (firstError !== undefined) throw firstError;
    return ran;
  }

  #loop(queue: string): Promise<void> {
    const stopping = this.#stopping.signal;
    const wakeup = this.#wakeups.get(queue)!;
    const host: QueueLoopHost = {
      queue,
      clock: this.#clock,
      errorReporter: this.#reporter,
      stopping,
      claim: (limit) => this.#claim(queue, limit),
      attempt: (job, heldSince, onRunEnd) => this.#attempt(job, heldSince, onRunEnd),
      stillHeld: (job, heldSince) => this.#stillHeld(job, heldSince),
      giveBack: (jobs) => this.#giveBack(jobs),
      track: (run) => this.#track(run),
      leaseOf: (job) => this.#leaseOf(job),
      heartbeatsFailing: () => (this.#failingHeartbeats.get(queue)?.size ?? 0) > 0,
      idle: () => wakeup.wait(stopping),
    };
    return new QueueLoop(host, new Slots(this.#concurrency(queue), this.#prefetch(queue))).run();
  }

  /** Keeps a run (an attempt, a give-back) for the stop to await. */
  #track(run: Promise<void>): Promise<void> {
    const tracked: Promise<void> = run.finally(() => this.#running.delete(tracked));
    this.#running.add(tracked);
    return tracked;
  }

  #leaseOf(job: ClaimedJob): number {
    return this.#leases[job.name] ?? defaultLeaseMs;
  }

  /**
   * Whether the attempt still holds a job held in the local queue (not cancelled, not claimed
   * again), extending its lease: answers when its lease started last (undefined when it is no
   * longer held); a store that cannot answer leaves the job to run on the lease it has.
   */
  async #stillHeld(job: ClaimedJob, heldSince: number): Promise<number | undefined> {
    try {
      const at = this.#clock.now();
      const outcome = await this.#store.jobReport({
        id: job.id,
        leaseToken: job.leaseToken,
        now: at,
        leaseMs: this.#leaseOf(job),
      });
      return outcome === "ok" ? at.getTime() : undefined;
    } catch (error) {
      this.#reporter.report(error, { origin: "queue", details: { stage: "heartbeat" } });
      return heldSince;
    }
  }

  /** Gives claimed jobs that will not run here back uncounted (the stop awaits it). */
  #giveBack(jobs: readonly ClaimedJob[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    const released = Promise.all(
      jobs.map((job) =>
        this.#store.jobRelease({ id: job.id, leaseToken: job.leaseToken, now: this.#clock.now() })
          .catch((error) =>
            this.#reporter.report(error, { origin: "queue", details: { stage: "release" } })
          )
      ),
    ).then(() => {});
    return this.#track(released);
  }

  async #claim(queue: string, limit: number): Promise<ClaimedJob[]> {
    const claimed = await this.#store.jobClaim({
      queue,
      limit,
      now: this.#clock.now(),
      leases: this.#leases,
      defaultLeaseMs,
      workerId: this.#id,
    });
    this.#rescuer.countTakenOver(claimed);
    return claimed;
  }

  async #attempt(
    job: ClaimedJob,
    heldSince: number,
    onRunEnd?: () => void,
  ): Promise<AttemptResult> {
    const failing = this.#failingHeartbeats.get(job.queue) ??
      this.#failingHeartbeats.set(job.queue, new Set()).get(job.queue)!;
    const attempt: AttemptContext = {
      store: this.#store,
      clock: this.#clock,
      timers: this.#timers,
      errorReporter: this.#reporter,
      jobs: this.#jobs,
      hardStop: this.#hardStop.signal,
      heldSince,
      onHeartbeat: (healthy) => {
        if (healthy) this.#heartbeatRecovered(failing, job.leaseToken);
        else failing.add(job.leaseToken);
      },
      complete: (id, leaseToken) => this.#completions.complete(id, leaseToken),
      ...(onRunEnd === undefined ? {} : { onRunEnd }),
    };
    const started = this.#clock.now().getTime();
    const span = this.#telemetry.startAttempt(job);
    let result: AttemptResult;
    try {
      result = await context.with(
        trace.setSpan(context.active(), span),
        () => runAttempt(attempt, job),
      );
    } catch (error) {
      this.#reporter.report(error, {
        origin: "queue",
        details: { stage: "record", jobId: job.id },
      });
      result = { outcome: "interrupted", error };
    } finally {
      this.#heartbeatRecovered(failing, job.leaseToken);
    }
    const duration = this.#clock.now().getTime() - started;
    this.#telemetry.endAttempt(span, job, result, duration);
    this.#logFailure(job, result);
    for (const listener of this.#listeners) listener(job, result, duration);
    return result;
  }

  /**
   * Writes a failed attempt as one line whose code is its error code, `warn`, when it is retried
   * (a bug, `UNEXPECTED`, is the error reporter's line); `error` `JOB_DEAD` after its last.
   */
  #logFailure(job: ClaimedJob, result: AttemptResult): void {
    const { errorCode, outcome } = result;
    if (this.#logger === undefined || errorCode === undefined) return;
    if (outcome !== "dead" && (outcome !== "retried" || errorCode === "UNEXPECTED")) return;
    const details = { queue: job.queue, job: job.name, jobId: job.id, attempt: job.attempt };
    this.#logger.log(
      outcome === "dead"
        ? {
          level: "error",
          component: "jobs.worker",
          code: "JOB_DEAD",
          message:
            `A job failed its last attempt (${errorCode}): dead until an operator retries it`,
          details: { ...details, errorCode },
        }
        : {
          level: "warn",
          component: "jobs.worker",
          code: errorCode,
          message: `A job attempt failed with ${errorCode}: retried after its backoff`,
          details,
        },
    );
  }

  /** Forgets a failing heartbeat; the queue's loop claims again at once when it was the last. */
  #heartbeatRecovered(failing: Set<string>, leaseToken: string): void {
    if (failing.delete(leaseToken) && failing.size === 0) this.wake();
  }
}

/** A setting in ms: a whole number from 1, or the default when absent. */
function positive(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!Number.isSafeInteger(ms) || ms < 1) {
    throw new RangeError(`${name} must be a whole number of ms from 1, got ${ms}`);
  }
  return ms;
}
