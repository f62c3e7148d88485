import { type Duration, toMilliseconds } from "../time/duration.ts";

/** The wait before the next attempt, given the number of the attempt that failed (from 1). */
export type Backoff = (attempt: number) => number;

/** The options of {@linkcode exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** The first wait (default 1 s). */
  readonly initial?: Duration;
  /** The longest wait (default 5 min). */
  readonly max?: Duration;
  /** The factor between two waits (default 2). */
  readonly factor?: number;
  /**
   * Spreads retries: a fraction from 0 to 1 of each wait drawn at random and taken off
   * (default 0, no jitter).
   */
  readonly jitter?: number;
  /** The source of randomness, from 0 to 1 (default `Math.random`). */
  readonly random?: () => number;
}

/**
 * An exponential backoff: `initial`, doubled (by `factor`) after each failed attempt, capped at
 * `max`, with optional jitter.
 *
 * @example The default: 1 s, 2 s, 4 s, ... up to 5 min
 * ```ts
 * import { exponentialBackoff } from "@kit/jobs";
 * const backoff = exponentialBackoff();
 * backoff(1); // 1000
 * backoff(3); // 4000
 * backoff(20); // 300000
 * ```
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): Backoff {
  const initial = toMilliseconds(options.initial ?? "1s");
  const max = toMilliseconds(options.max ?? "5m");
  const factor = options.factor ?? 2;
  const jitter = options.jitter ?? 0;
  const random = options.random ?? Math.random;
  if (!(factor >= 1)) throw new RangeError(`A backoff factor must be at least 1, got ${factor}`);
  if (!(jitter >= 0 && jitter <= 1)) {
    throw new RangeError(`A backoff jitter must be from 0 to 1, got ${jitter}`);
  }
  return function backoff(attempt: number): number {
    const base = Math.min(max, initial * factor ** Math.max(0, attempt - 1));
    return Math.round(base - base * jitter * random());
  };
}
