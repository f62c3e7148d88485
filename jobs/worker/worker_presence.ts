import type { Clock, Logger } from "@kit/kernel";
import type { JobStore } from "../store/job_store.ts";
import type { WorkerRegistration } from "../store/worker_registry.ts";
import { Periodic, withinDeadline } from "./periodic.ts";

/**
 * How long a start waits for the first heartbeat, and a stop for the heartbeat under way, then for
 * the deregistration.
 */
const stopDeadlineMs = 5_000;

/**
 * Keeps a worker process registered in its store while it runs: a heartbeat at start and every
 * `intervalMs`, each making it live for `ttlMs` more; deregistered when it stops. A store without
 * a registry (`workerHeartbeat` absent) is left alone. A failed heartbeat is logged once
 * (`jobs.worker` `HEARTBEAT_FAILED`) until one succeeds again (`HEARTBEAT_RECOVERED`).
 */
export class WorkerPresence {
  readonly #store: JobStore;
  readonly #clock: Clock;
  readonly #identity: Omit<WorkerRegistration, "startedAt">;
  #worker: WorkerRegistration | undefined;
  readonly #ttlMs: number;
  readonly #logger: Logger;
  readonly #periodic: Periodic;
  #failing = false;

  /** The presence of `worker` in `store` (its start time is stamped by `start()`). */
  constructor(options: {
    store: JobStore;
    clock: Clock;
    worker: Omit<WorkerRegistration, "startedAt">;
    intervalMs: number;
    ttlMs: number;
    logger: Logger;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#identity = options.worker;
    this.#ttlMs = options.ttlMs;
    this.#logger = options.logger;
    this.#periodic = new Periodic(options.clock, options.intervalMs, async () => {
      await this.beat();
    }, (error) =>
      this.#logger.log({
        level: "error",
        component: "jobs.worker",
        code: "HEARTBEAT_BUG",
        message: "a heartbeat threw; the next one still runs",
        error,
        bug: true,
      }));
  }

  /**
   * Registers the worker, started now (the first heartbeat, awaited up to `stopDeadlineMs` of the
   * clock's time: a store that does not answer does not hold the start), then beats every interval.
   */
  async start(): Promise<void> {
    if (this.#store.workerHeartbeat === undefined || this.#worker !== undefined) return;
    this.#worker = { ...this.#identity, startedAt: this.#clock.now() };
    await withinDeadline(this.#clock, stopDeadlineMs, this.beat());
    this.#periodic.start({ delayed: true });
  }

  /** One heartbeat now; answers whether the store took it. */
  async beat(): Promise<boolean> {
    const worker = this.#worker;
    if (worker === undefined) return false;
    try {
      await this.#store.workerHeartbeat?.({
        worker,
        now: this.#clock.now(),
        ttlMs: this.#ttlMs,
      });
      if (this.#failing) {
        this.#failing = false;
        this.#log("info", "HEARTBEAT_RECOVERED", "the worker's heartbeat reaches the store again");
      }
      return true;
    } catch (error) {
      if (!this.#failing) {
        this.#failing = true;
        this.#log(
          "warn",
          "HEARTBEAT_FAILED",
          "the worker's heartbeat failed: it shows as gone once its registration expires",
          error,
        );
      }
      return false;
    }
  }

  /**
   * Stops the heartbeats and deregisters the worker; each waits up to `stopDeadlineMs` (5 s) of
   * the clock's time, so that a store that does not answer does not hold the worker's stop. A
   * failure is logged, not thrown.
   */
  async stop(): Promise<void> {
    await this.#periodic.stop(stopDeadlineMs);
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker === undefined || this.#store.workerDeregister === undefined) return;
    let failure: unknown;
    const deregistered = this.#store.workerDeregister({ id: worker.id }).catch((error) => {
      failure = error ?? new Error("deregister failed");
    });
    const ended = await withinDeadline(this.#clock, stopDeadlineMs, deregistered);
    if (!ended || failure !== undefined) {
      this.#log(
        "warn",
        "DEREGISTER_FAILED",
        `the stopped worker could not deregister${
          ended ? "" : " within 5 s"
        }: it shows as live until its registration expires`,
        failure,
      );
    }
  }

  #log(level: "info" | "warn", code: string, message: string, error?: unknown): void {
    this.#logger.log({
      level,
      component: "jobs.worker",
      code,
      message,
      details: { worker: this.#identity.id },
      ...(error === undefined ? {} : { error }),
    });
  }
}
