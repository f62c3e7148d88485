import type { Clock, Logger } from "@kit/kernel";
import type { JobStore } from "../store/job_store.ts";
import type { WorkerRegistration } from "../store/worker_registry.ts";
import { Periodic, withinDeadline } from "./periodic.ts";

/** How long a stop waits for the heartbeat under way, then for the deregistration. */
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
  readonly #worker: WorkerRegistration;
  readonly #ttlMs: number;
  readonly #logger: Logger;
  readonly #periodic: Periodic;
  #failing = false;
  #started = false;

  /** The presence of `worker` in `store`. */
  constructor(options: {
    store: JobStore;
    clock: Clock;
    worker: WorkerRegistration;
    intervalMs: number;
    ttlMs: number;
    logger: Logger;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#worker = options.worker;
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

  /** Registers the worker (the first heartbeat, awaited), then beats every interval. */
  async start(): Promise<void> {
    if (this.#store.workerHeartbeat === undefined) return;
    this.#started = true;
    await this.beat();
    this.#periodic.start({ delayed: true });
  }

  /** One heartbeat now; answers whether the store took it. */
  async beat(): Promise<boolean> {
    try {
      await this.#store.workerHeartbeat?.({
        worker: this.#worker,
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
    if (!this.#started || this.#store.workerDeregister === undefined) return;
    this.#started = false;
    let failure: unknown;
    const deregistered = this.#store.workerDeregister({ id: this.#worker.id }).catch((error) => {
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
      details: { worker: this.#worker.id },
      ...(error === undefined ? {} : { error }),
    });
  }
}
