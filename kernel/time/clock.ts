import { type Token, token } from "../composition/token.ts";

/** The source of time for every component. Tests inject a {@linkcode TestClock}. */
export interface Clock {
  /** The current instant. */
  now(): Date;
  /**
   * Resolves after `ms` milliseconds of this clock's time, or rejects with the signal's reason
   * when it aborts first.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: wall time and real timers. */
export const systemClock: Clock = {
  now(): Date {
    return new Date();
  },
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
};

/** The token of the clock. */
export const Clock: Token<Clock> = token<Clock>("Clock");
