import type { Clock } from "@kit/kernel";

/**
 * The idle wait of one queue's loop: ends at a wake-up, after the poll interval, or at the stop.
 * A wake-up while the loop is not waiting (a claim that found nothing is in flight) is kept for
 * its next wait, so that it is not lost. A wait that ends leaves nothing behind: its poll timer is
 * cancelled and its listener on the stop removed (a worker idle for a day waits 86,400 times).
 */
export class Wakeup {
  readonly #clock: Clock;
  readonly #pollIntervalMs: number;
  #waiting: (() => void)[] = [];
  #missed = false;

  /**
   * A wake-up polling every `pollIntervalMs` on `clock`.
   *
   * @param clock The worker's clock.
   * @param pollIntervalMs The longest wait (ms).
   */
  constructor(clock: Clock, pollIntervalMs: number) {
    this.#clock = clock;
    this.#pollIntervalMs = pollIntervalMs;
  }

  /** Ends the waits under way, or the next one when none is. */
  wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    if (waiting.length === 0) this.#missed = true;
    for (const resolve of waiting) resolve();
  }

  /**
   * Waits for a wake-up, the poll interval or the stop.
   *
   * @param stopping Aborted when the worker stops.
   * @returns Settles when the wait ends (at once after a missed wake-up).
   */
  wait(stopping: AbortSignal): Promise<void> {
    if (this.#missed) {
      this.#missed = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = new AbortController();
      const done = () => {
        const index = this.#waiting.indexOf(done);
        if (index >= 0) this.#waiting.splice(index, 1);
        stopping.removeEventListener("abort", done);
        resolve();
        timer.abort(waitOver);
      };
      this.#waiting.push(done);
      this.#clock.sleep(this.#pollIntervalMs, timer.signal).then(done, () => {});
      if (stopping.aborted) done();
      else stopping.addEventListener("abort", done, { once: true });
    });
  }
}

/**
 * The reason a wait's poll timer is cancelled with when the wait ends first: one shared value,
 * read by no one. Aborting without a reason makes a `DOMException`, with its stack, at every
 * wake-up, on the way from a `NOTIFY` to the claim (bench/jobs/README.md, "The idle start, step by
 * step").
 */
const waitOver: Error = new Error("the wait is over");
