import type { Clock, Logger } from "@kit/kernel";
import type { Counter, Meter } from "@opentelemetry/api";
import type { ClaimedJob, JobStore } from "../store/job_store.ts";
import type { RescuedJob } from "../store/worker_registry.ts";
import { Periodic } from "./periodic.ts";

/** How long a stop waits for the rescue pass under way. */
const stopDeadlineMs = 5_000;

/** The most batches one rescue pass takes; the rest wait for the next pass. */
const batchesPerPass = 10;

/**
 * Takes back, now and then, the running jobs whose lease ended, whatever their queue, so that a
 * dead worker's jobs go back to `waiting` (or die on their last attempt) even when no worker of
 * their queue runs (River's rescuer; here every worker process runs one, no leader: each store's
 * rescue takes a job once however many run at once). Each pass counts `kit.jobs.leases.expired`
 * by queue (so do the worker's claims that take a job over from an ended lease) and logs one line
 * when it rescued jobs (`jobs.rescuer` `LEASES_EXPIRED`, the count);
 * a failing pass is logged once (`RESCUE_FAILED`) until one succeeds.
 */
export class Rescuer {
  readonly #store: JobStore;
  readonly #clock: Clock;
  readonly #limit: number;
  readonly #logger: Logger;
  readonly #expired: Counter;
  readonly #periodic: Periodic;
  #failing = false;

  /** A rescuer of the store, a pass every `intervalMs`, `limit` jobs a batch. */
  constructor(options: {
    store: JobStore;
    clock: Clock;
    intervalMs: number;
    limit: number;
    logger: Logger;
    meter: Meter;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#limit = options.limit;
    this.#logger = options.logger;
    this.#expired = options.meter.createCounter("kit.jobs.leases.expired", {
      description: "Jobs whose lease ended before their attempt did, taken back by the rescuer",
    });
    this.#periodic = new Periodic(options.clock, options.intervalMs, async () => {
      await this.pass();
    }, (error) => this.#bug(error));
  }

  /** Starts the passes (the first at once); nothing for a store that cannot rescue. */
  start(): void {
    if (this.#store.jobRescue !== undefined) this.#periodic.start();
  }

  /**
   * Stops the passes, waiting for the one under way up to `stopDeadlineMs` (5 s) of the clock's
   * time: a store that does not answer does not hold the worker's stop.
   */
  async stop(): Promise<void> {
    if (!(await this.#periodic.stop(stopDeadlineMs))) {
      this.#log("warn", "RESCUE_ABANDONED", "a rescue pass did not end within 5 s of the stop");
    }
  }

  /** One pass now: answers the jobs it rescued (none when it failed, which it logs). */
  async pass(): Promise<readonly RescuedJob[]> {
    if (this.#store.jobRescue === undefined) return [];
    const rescued: RescuedJob[] = [];
    try {
      for (let batch = 0; batch < batchesPerPass; batch++) {
        const jobs = await this.#store.jobRescue({ now: this.#clock.now(), limit: this.#limit });
        rescued.push(...jobs);
        if (jobs.length < this.#limit) break;
      }
      if (this.#failing) {
        this.#failing = false;
        this.#log("info", "RESCUE_RECOVERED", "the rescuer reaches the store again");
      }
    } catch (error) {
      if (!this.#failing) {
        this.#failing = true;
        this.#log("warn", "RESCUE_FAILED", "a rescue pass failed; it is tried again", { error });
      }
    }
    if (rescued.length > 0) this.#report(rescued);
    return rescued;
  }

  /**
   * Counts, in `kit.jobs.leases.expired`, the jobs of a claim taken over from an ended lease
   * (`ClaimedJob.leaseEnded`): a queue with a free worker takes them back before the rescuer does.
   */
  countTakenOver(claimed: readonly ClaimedJob[]): void {
    const byQueue = countByQueue(claimed.filter((job) => job.leaseEnded === true));
    for (const [queue, n] of Object.entries(byQueue)) this.#expired.add(n, { queue });
  }

  #report(rescued: readonly RescuedJob[]): void {
    const byQueue = countByQueue(rescued);
    for (const [queue, n] of Object.entries(byQueue)) this.#expired.add(n, { queue });
    const dead = rescued.filter((job) => job.outcome === "dead").length;
    this.#logger.log({
      level: "warn",
      component: "jobs.rescuer",
      code: "LEASES_EXPIRED",
      message: "jobs whose lease ended were taken back (their worker died or outran the lease)",
      count: rescued.length,
      details: { queues: byQueue, waiting: rescued.length - dead, dead },
    });
  }

  #bug(error: unknown): void {
    this.#logger.log({
      level: "error",
      component: "jobs.rescuer",
      code: "RESCUE_BUG",
      message: "a rescue pass threw; the next pass still runs",
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
    this.#logger.log({ level, component: "jobs.rescuer", code, message, ...extra });
  }
}

function countByQueue(jobs: readonly { readonly queue: string }[]): Record<string, number> {
  const byQueue: Record<string, number> = {};
  for (const job of jobs) byQueue[job.queue] = (byQueue[job.queue] ?? 0) + 1;
  return byQueue;
}
