import type { Clock, Logger } from "@kit/kernel";
import type { Counter, Meter } from "@opentelemetry/api";
import type { JobStore } from "../store/job_store.ts";
import { type FinishedJobStatus, finishedJobStatuses } from "../store/job_retention.ts";
import {
  type JobRetention,
  millisecondsOf,
  type ResolvedRetention,
  resolveRetention,
} from "./retention_policy.ts";
import { Periodic } from "./periodic.ts";

/** How long a stop waits for the prune pass under way. */
const stopDeadlineMs = 5_000;

/** The jobs one prune call removes at most (River's job cleaner deletes 1,000 a batch). */
export const pruneBatch = 1_000;

/** The most batches a pass takes per queue and status; the rest wait for the next pass. */
const batchesPerPass = 10;

/** What a pass removed: by queue, by status. */
export type PruneCounts = Record<string, Partial<Record<FinishedJobStatus, number>>>;

/**
 * Removes, now and then, the finished jobs the retention no longer keeps (Oban's pruner, River's
 * job cleaner), of the worker's queues and of the queues its rules name. Every worker process
 * runs one, no leader: a prune call removes a bounded batch (`pruneBatch`) of one queue and
 * status, and the stores' prunes skip what another pruner holds (`for update skip locked`,
 * atomic scripts), so pruners never wait on each other nor remove a job twice. Each pass counts
 * `kit.jobs.pruned` by queue and status and logs one line when it removed jobs (`jobs.pruner`
 * `JOBS_PRUNED`, the count); a failing pass counts `kit.jobs.prune.failed` (by the queue it failed
 * on) every time and is logged once (`PRUNE_FAILED`) until one succeeds.
 */
export class Pruner {
  readonly #store: JobStore;
  readonly #clock: Clock;
  readonly #queues: readonly string[];
  readonly #rule: (queue: string, status: FinishedJobStatus) => ResolvedRetention;
  readonly #logger: Logger;
  readonly #pruned: Counter;
  readonly #failed: Counter;
  readonly #periodic: Periodic;
  #failing = false;

  /**
   * A pruner of the store's finished jobs of the queues (and of those the rules name).
   *
   * @throws {RangeError} When the retention's settings are out of bounds.
   */
  constructor(options: {
    store: JobStore;
    clock: Clock;
    queues: readonly string[];
    retention: JobRetention;
    logger: Logger;
    meter: Meter;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#rule = resolveRetention(options.retention);
    this.#queues = [...new Set([...options.queues, ...Object.keys(options.retention.queues ?? {})])]
      .sort();
    this.#logger = options.logger;
    this.#pruned = options.meter.createCounter("kit.jobs.pruned", {
      description: "Finished jobs removed by retention",
    });
    this.#failed = options.meter.createCounter("kit.jobs.prune.failed", {
      description: "Prune passes that failed (by the queue whose prune threw)",
      unit: "{pass}",
    });
    const intervalMs = millisecondsOf(options.retention.interval ?? "1m");
    if (!Number.isSafeInteger(intervalMs) || intervalMs < 1) {
      throw new RangeError(
        `The retention's interval must be a duration from 1 ms, got ${
          JSON.stringify(options.retention.interval)
        }`,
      );
    }
    this.#periodic = new Periodic(options.clock, intervalMs, async () => {
      await this.pass();
    }, (error) => this.#bug(error));
  }

  /** The queues it prunes, sorted. */
  get queues(): readonly string[] {
    return this.#queues;
  }

  /** Starts the passes (the first at once); a store that cannot prune is logged, once. */
  start(): void {
    if (this.#store.jobPrune === undefined) {
      this.#log(
        "warn",
        "RETENTION_UNSUPPORTED",
        "the job store cannot prune: finished jobs are kept until an operator purges them",
      );
      return;
    }
    this.#periodic.start();
  }

  /**
   * Stops the passes, waiting for the one under way up to `stopDeadlineMs` (5 s) of the clock's
   * time: a store that does not answer does not hold the worker's stop.
   */
  async stop(): Promise<void> {
    if (!(await this.#periodic.stop(stopDeadlineMs))) {
      this.#log("warn", "PRUNE_ABANDONED", "a prune pass did not end within 5 s of the stop");
    }
  }

  /**
   * One pass now: per queue and status, batches of `pruneBatch` until one removes fewer (10 at
   * most). Answers what it removed (what it removed before failing, when it failed: logged).
   */
  async pass(): Promise<PruneCounts> {
    const prune = this.#store.jobPrune?.bind(this.#store);
    const counts: PruneCounts = {};
    if (prune === undefined) return counts;
    let current: string | undefined;
    try {
      const now = this.#clock.now().getTime();
      for (const queue of this.#queues) {
        current = queue;
        for (const status of finishedJobStatuses) {
          const { maxAgeMs, maxCount } = this.#rule(queue, status);
          if (maxAgeMs === undefined && maxCount === undefined) continue;
          for (let batch = 0; batch < batchesPerPass; batch++) {
            const removed = await prune({
              queue,
              status,
              ...(maxAgeMs === undefined ? {} : { finishedBefore: new Date(now - maxAgeMs) }),
              ...(maxCount === undefined ? {} : { keep: maxCount }),
              limit: pruneBatch,
            });
            if (removed > 0) {
              const byStatus = counts[queue] ??= {};
              byStatus[status] = (byStatus[status] ?? 0) + removed;
            }
            if (removed < pruneBatch) break;
          }
        }
      }
      if (this.#failing) {
        this.#failing = false;
        this.#log("info", "PRUNE_RECOVERED", "the pruner reaches the store again");
      }
    } catch (error) {
      this.#failed.add(1, { queue: current ?? "" });
      if (!this.#failing) {
        this.#failing = true;
        this.#log("warn", "PRUNE_FAILED", "a prune pass failed; it is tried again", { error });
      }
    }
    this.#report(counts);
    return counts;
  }

  #report(counts: PruneCounts): void {
    let total = 0;
    for (const [queue, byStatus] of Object.entries(counts)) {
      for (const [status, n] of Object.entries(byStatus)) {
        this.#pruned.add(n, { queue, status });
        total += n;
      }
    }
    if (total === 0) return;
    this.#logger.log({
      level: "info",
      component: "jobs.pruner",
      code: "JOBS_PRUNED",
      message: "finished jobs past their retention were removed",
      count: total,
      details: { queues: counts },
    });
  }

  #bug(error: unknown): void {
    this.#logger.log({
      level: "error",
      component: "jobs.pruner",
      code: "PRUNE_BUG",
      message: "a prune pass threw; the next pass still runs",
      error,
      bug: true,
    });
  }

  #log(
    level: "info" | "warn",
    code: string,
    message: string,
    extra: { error?: unknown } = {},
  ): void {
    this.#logger.log({ level, component: "jobs.pruner", code, message, ...extra });
  }
}
