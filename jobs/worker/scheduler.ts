import { type Clock, type Duration, type ErrorReporter, type Token, token } from "@kit/kernel";
import type { BackgroundJobClass } from "@kit/kernel/types";
import { latestTick, type ScheduledTick } from "../declaration/scheduled.ts";
import type { BackgroundJobs } from "../queue/background_jobs.ts";

/** A scheduled job this process schedules. */
export interface ScheduleEntry {
  /** The job class. */
  readonly job: BackgroundJobClass<ScheduledTick>;
  /** Its name. */
  readonly name: string;
  /** Its queue. */
  readonly queue: string;
  /** Its interval as declared. */
  readonly every: Duration;
  /** Its interval, in ms. */
  readonly everyMs: number;
}

/**
 * The scheduled jobs of the application, by the key the jobs plugin provides them under (the
 * jobs dashboard reads them).
 */
export const ScheduledJobs: Token<readonly ScheduleEntry[]> = token<readonly ScheduleEntry[]>(
  "ScheduledJobs",
);

/**
 * Enqueues one run of each scheduled job per tick, keyed by the tick: every process may
 * schedule, and the store keeps one job per tick.
 */
export class Scheduler {
  readonly #queue: BackgroundJobs;
  readonly #clock: Clock;
  readonly #entries: readonly ScheduleEntry[];
  readonly #reporter: ErrorReporter;
  readonly #scheduled = new Map<string, number>();
  #stopping = new AbortController();
  #loop: Promise<void> | undefined;

  /** A scheduler of the entries, through the queue. */
  constructor(options: {
    queue: BackgroundJobs;
    clock: Clock;
    entries: readonly ScheduleEntry[];
    errorReporter: ErrorReporter;
  }) {
    this.#queue = options.queue;
    this.#clock = options.clock;
    this.#entries = options.entries;
    this.#reporter = options.errorReporter;
  }

  /** Enqueues the current tick of every job not yet scheduled for it; answers how many. */
  async scheduleDue(): Promise<number> {
    let enqueued = 0;
    const now = this.#clock.now();
    for (const entry of this.#entries) {
      const tick = latestTick(now, entry.everyMs);
      if ((this.#scheduled.get(entry.name) ?? -Infinity) >= tick.getTime()) continue;
      const iso = tick.toISOString();
      await this.#queue.enqueue(entry.job, { tick: iso }, {
        idempotencyKey: `tick:${iso}`,
        runAt: tick,
      });
      this.#scheduled.set(entry.name, tick.getTime());
      enqueued++;
    }
    return enqueued;
  }

  /** Schedules at every tick until stopped. */
  start(): void {
    if (this.#loop !== undefined || this.#entries.length === 0) return;
    this.#stopping = new AbortController();
    this.#loop = this.#run(this.#stopping.signal);
  }

  /** Stops scheduling. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#loop;
    this.#loop = undefined;
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.scheduleDue();
      } catch (error) {
        this.#reporter.report(error, { origin: "schedule", details: { stage: "enqueue" } });
      }
      const now = this.#clock.now().getTime();
      const next = Math.min(
        ...this.#entries.map((e) => (Math.floor(now / e.everyMs) + 1) * e.everyMs),
      );
      try {
        await this.#clock.sleep(next - now, signal);
      } catch {
        return;
      }
    }
  }
}
