import type { Clock } from "@kit/kernel";

/**
 * Runs a task now and then every `intervalMs` of the clock's time, one run at a time, until
 * stopped. A run that throws is given to `onError`; the next still runs.
 */
export class Periodic {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #task: () => Promise<void>;
  #stopping: AbortController | undefined;
  #loop: Promise<void> | undefined;

  /**
   * A periodic task on the clock.
   *
   * @param clock The clock whose time paces it.
   * @param intervalMs The wait between the end of a run and the start of the next.
   * @param task The task; it handles the errors it expects.
   * @param onError Told of an error the task let through (a bug); the next run still starts.
   */
  constructor(
    clock: Clock,
    intervalMs: number,
    task: () => Promise<void>,
    onError: (error: unknown) => void,
  ) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#task = async () => {
      try {
        await task();
      } catch (error) {
        onError(error);
      }
    };
  }

  /**
   * Starts the runs, the first at once (after one interval when `delayed`); nothing when started
   * already.
   */
  start(options: { delayed?: boolean } = {}): void {
    if (this.#loop !== undefined) return;
    const stopping = new AbortController();
    this.#stopping = stopping;
    this.#loop = (async () => {
      if (options.delayed === true && !(await this.#wait(stopping.signal))) return;
      while (!stopping.signal.aborted) {
        await this.#task();
        if (!(await this.#wait(stopping.signal))) return;
      }
    })();
  }

  /** Waits one interval; answers false when stopped meanwhile. */
  async #wait(signal: AbortSignal): Promise<boolean> {
    try {
      await this.#clock.sleep(this.#intervalMs, signal);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Stops: no other run starts; waits for the run under way up to `deadlineMs` of the clock's
   * time (a run stuck on a store that does not answer is left behind). Answers false when the
   * deadline passed first.
   */
  async stop(deadlineMs: number): Promise<boolean> {
    const loop = this.#loop;
    this.#stopping?.abort();
    this.#loop = undefined;
    this.#stopping = undefined;
    if (loop === undefined) return true;
    return await withinDeadline(this.#clock, deadlineMs, loop);
  }
}

/**
 * Waits for `work` up to `deadlineMs` of the clock's time; answers whether it ended first (its
 * rejection counts as ended: the caller reports its own errors).
 *
 * @param clock The clock.
 * @param deadlineMs The longest wait.
 * @param work What to wait for.
 * @returns True when `work` settled before the deadline.
 */
export async function withinDeadline(
  clock: Clock,
  deadlineMs: number,
  work: Promise<unknown>,
): Promise<boolean> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      work.then(() => true, () => true),
      clock.sleep(deadlineMs, timer.signal).then(() => false),
    ]);
  } finally {
    timer.abort();
  }
}
