import type { Clock } from "./clock.ts";

interface Sleeper {
  readonly wakeAt: number;
  readonly order: number;
  readonly resolve: () => void;
}

/**
 * A clock that moves only when told to. Sleepers wake, in order, when {@linkcode TestClock.advance}
 * passes their time.
 *
 * @example Move time in a test
 * ```ts
 * import { TestClock } from "@kit/kernel/testing";
 * const clock = new TestClock("2026-01-01T09:00:00Z");
 * clock.advance(60_000);
 * clock.now().toISOString(); // "2026-01-01T09:01:00.000Z"
 * ```
 */
export class TestClock implements Clock {
  #now: number;
  #sleepers: Sleeper[] = [];
  #order = 0;

  /** Starts the clock at the given instant (default 2026-01-01T00:00:00Z). */
  constructor(start: Date | string | number = "2026-01-01T00:00:00Z") {
    this.#now = new Date(start).getTime();
    if (Number.isNaN(this.#now)) throw new RangeError(`Invalid start instant ${String(start)}`);
  }

  /** The current instant of this clock. */
  now(): Date {
    return new Date(this.#now);
  }

  /** Resolves when the clock has been advanced by `ms` or more. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const sleeper: Sleeper = {
        wakeAt: this.#now + Math.max(0, ms),
        order: this.#order++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /** Moves the clock forward by `ms` milliseconds and wakes the sleepers now due. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`A clock moves forward only, got ${ms} ms`);
    this.#now += ms;
    this.#wake();
  }

  /** Moves the clock to an instant not before the current one. */
  set(instant: Date | string | number): void {
    const target = new Date(instant).getTime();
    if (Number.isNaN(target)) throw new RangeError(`Invalid instant ${String(instant)}`);
    this.advance(target - this.#now);
  }

  /** How many sleepers wait for the clock to move. */
  get pendingSleepers(): number {
    return this.#sleepers.length;
  }

  #wake(): void {
    const due = this.#sleepers.filter((s) => s.wakeAt <= this.#now);
    if (due.length === 0) return;
    this.#sleepers = this.#sleepers.filter((s) => s.wakeAt > this.#now);
    due.sort((a, b) => a.wakeAt - b.wakeAt || a.order - b.order);
    for (const sleeper of due) sleeper.resolve();
  }
}
