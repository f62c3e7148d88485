import { type Clock, systemClock } from "../time/clock.ts";
import { type Duration, toMilliseconds } from "../time/duration.ts";

/**
 * One dependency's check: resolves when the dependency answers, rejects (or never settles) when
 * it does not. The signal aborts when the time-out runs out.
 */
export type HealthCheck = (signal: AbortSignal) => Promise<unknown>;

/** The outcome of one check. */
export interface HealthCheckResult {
  /** `"up"`: it answered in time; `"down"`: it failed or did not answer in time. */
  readonly status: "up" | "down";
  /** Why it is down (`"timed out"`, `"failed"`); nothing more, since readiness is public. */
  readonly reason?: "timed out" | "failed";
}

/** Whether the process can serve: every check up. */
export interface ReadinessReport {
  /** `"ready"` when every check is up, else `"unavailable"`. */
  readonly status: "ready" | "unavailable";
  /** Each check's outcome, by name. */
  readonly checks: Readonly<Record<string, HealthCheckResult>>;
}

/** How {@linkcode checkReadiness} runs the checks. */
export interface ReadinessOptions {
  /** How long each check may take (default `"2s"`). */
  readonly timeout?: Duration;
  /** The clock whose time the time-out is counted in (default: the system clock). */
  readonly clock?: Clock;
  /** Called with each check that failed, and its error (a log; never in the report). */
  readonly onFailure?: (name: string, error: unknown) => void;
}

/**
 * Runs every check at once, each within the time-out, and reports whether the process is ready
 * to serve (every dependency answered) — what a readiness probe asks, unlike liveness (the
 * process answers at all). A check that fails or runs out of time is `down`; the report names no
 * host, port or error text, since probes are often public.
 *
 * @example
 * ```ts
 * import { checkReadiness } from "@kit/kernel";
 * const report = await checkReadiness({ database: () => Promise.resolve() });
 * report.status; // "ready"
 * ```
 */
export async function checkReadiness(
  checks: Readonly<Record<string, HealthCheck>>,
  options: ReadinessOptions = {},
): Promise<ReadinessReport> {
  const timeoutMs = toMilliseconds(options.timeout ?? "2s");
  const clock = options.clock ?? systemClock;
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) =>
      [name, await runCheck(name, check, timeoutMs, clock, options.onFailure)] as const
    ),
  );
  const results = Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
  const ready = entries.every(([, result]) => result.status === "up");
  return { status: ready ? "ready" : "unavailable", checks: results };
}

async function runCheck(
  name: string,
  check: HealthCheck,
  timeoutMs: number,
  clock: Clock,
  onFailure: ((name: string, error: unknown) => void) | undefined,
): Promise<HealthCheckResult> {
  const controller = new AbortController();
  const stopTimer = new AbortController();
  const timedOut = Symbol("timed out");
  const timer = clock.sleep(timeoutMs, stopTimer.signal).then(() => timedOut, () => undefined);
  try {
    const outcome = await Promise.race([
      Promise.resolve().then(() => check(controller.signal)).then(() => undefined),
      timer,
    ]);
    if (outcome !== timedOut) return { status: "up" };
    controller.abort(new Error(`The check '${name}' timed out after ${timeoutMs} ms`));
    onFailure?.(name, controller.signal.reason);
    return { status: "down", reason: "timed out" };
  } catch (error) {
    onFailure?.(name, error);
    return { status: "down", reason: "failed" };
  } finally {
    stopTimer.abort();
  }
}
