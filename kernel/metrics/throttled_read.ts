import type { Clock } from "../time/clock.ts";

/** The options of a {@linkcode ThrottledRead}. */
export interface ThrottledReadOptions<T> {
  /** The read (a store query); it should stop when the signal aborts. */
  readonly read: (signal: AbortSignal) => Promise<T>;
  /** The clock of the value's age and of the deadline. */
  readonly clock: Clock;
  /** How long a value read is answered again instead of reading anew, in ms. */
  readonly maxAgeMs: number;
  /** How long a read may take, in ms: past it, `value()` rejects and the read is aborted. */
  readonly timeoutMs: number;
}

/**
 * A read that costs at most one query per `maxAgeMs`, whoever asks: the last value while it is
 * younger, else one read at a time shared by every caller, with a deadline. A read past its
 * deadline is aborted; until it ends, `value()` rejects rather than start another one beside it
 * (a stalled store is not sent a query per collection). For observable
 * gauges read from a store when an SDK collects (several readers, or a scrape at each of them,
 * ask within the same interval).
 *
 * @example
 * ```ts
 * import { systemClock, ThrottledRead } from "@kit/kernel/internal";
 * const counts = new ThrottledRead({
 *   read: () => Promise.resolve(42),
 *   clock: systemClock,
 *   maxAgeMs: 10_000,
 *   timeoutMs: 5_000,
 * });
 * await counts.value(); // 42, read once for the next 10 s
 * ```
 */
export class ThrottledRead<T> {
  readonly #options: ThrottledReadOptions<T>;
  #last: { readonly at: number; readonly value: T } | undefined;
  #reading: Promise<T> | undefined;
  /** The read under way, until it settles, even past its deadline. */
  #unsettled: Promise<unknown> | undefined;

  /** Checks the durations; reads nothing yet. */
  constructor(options: ThrottledReadOptions<T>) {
    for (const name of ["maxAgeMs", "timeoutMs"] as const) {
      if (!(options[name] > 0) || !Number.isFinite(options[name])) {
        throw new RangeError(
          `ThrottledRead ${name} must be a number of ms > 0, got ${options[name]}`,
        );
      }
    }
    this.#options = options;
  }

  /** The last value if younger than `maxAgeMs`, else the value of a read (shared if under way). */
  value(): Promise<T> {
    const now = this.#options.clock.now().getTime();
    const last = this.#last;
    if (last !== undefined && now - last.at < this.#options.maxAgeMs) {
      return Promise.resolve(last.value);
    }
    return this.#reading ??= this.#read(now).finally(() => this.#reading = undefined);
  }

  async #read(now: number): Promise<T> {
    const { read, clock, timeoutMs } = this.#options;
    if (this.#unsettled !== undefined) {
      throw new Error("The previous read has not ended yet (it passed its deadline)");
    }
    const deadline = new AbortController();
    const done = new AbortController();
    const expired = clock.sleep(timeoutMs, done.signal).then(() => {
      deadline.abort(new Error(`The read took more than ${timeoutMs} ms`));
      throw deadline.signal.reason;
    });
    expired.catch(() => {});
    try {
      const reading = read(deadline.signal);
      const settled = () => {
        this.#unsettled = undefined;
      };
      this.#unsettled = reading.then(settled, settled);
      const value = await Promise.race([reading, expired]);
      this.#last = { at: now, value };
      return value;
    } finally {
      done.abort();
    }
  }
}
