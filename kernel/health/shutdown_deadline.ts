import type { Logger } from "../logging/logger.ts";
import { consoleLogger } from "../logging/logger.ts";
import { type Clock, systemClock } from "../time/clock.ts";
import { type Duration, toMilliseconds } from "../time/duration.ts";

/** How {@linkcode shutdownWithin} ends the process. */
export interface ShutdownDeadlineOptions {
  /**
   * How long the graceful steps may take before the process ends anyway (default `"25s"`, under
   * the 30 s an orchestrator commonly waits before it kills).
   */
  readonly deadline?: Duration;
  /** Ends the process with a code (`Deno.exit` or `process.exit` in an entry point). */
  readonly exit: (code: number) => void;
  /** Where the line of a shutdown that ran out of time or failed goes (default: the console). */
  readonly logger?: Logger;
  /** The clock the deadline is counted in (default: the system clock). */
  readonly clock?: Clock;
}

/**
 * The signal handler of an entry point, with a hard deadline: its first call runs `stop` (stop
 * serving, stop the application, end the database client with `sql.end({ timeout })`) and exits
 * with 0 once it has finished. If `stop` fails, or has not finished within the deadline (a
 * request or a statement that never ends, a server frozen), one line is logged (component
 * `shutdown`, code `SHUTDOWN_FAILED` or `SHUTDOWN_DEADLINE`) and the process exits with 1.
 * Later calls (a second signal) change nothing.
 *
 * @example
 * ```ts ignore
 * const shutdown = shutdownWithin(async () => {
 *   await server.shutdown();
 *   await sql.end({ timeout: 5 });
 * }, { deadline: "25s", exit: Deno.exit });
 * for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, shutdown);
 * ```
 */
export function shutdownWithin(
  stop: () => Promise<unknown>,
  options: ShutdownDeadlineOptions,
): () => Promise<void> {
  const deadlineMs = toMilliseconds(options.deadline ?? "25s");
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger();
  let running: Promise<void> | undefined;
  return () =>
    running ??= (async () => {
      const expired = new AbortController();
      const late = Symbol("late");
      const outcome = await Promise.race([
        Promise.resolve().then(stop).then(() => "stopped" as const, (error: unknown) => error),
        clock.sleep(deadlineMs, expired.signal).then(() => late, () => late),
      ]);
      expired.abort();
      if (outcome === "stopped") return options.exit(0);
      logger.log(
        outcome === late
          ? {
            level: "error",
            component: "shutdown",
            code: "SHUTDOWN_DEADLINE",
            message: `the shutdown did not finish within ${deadlineMs} ms; exiting anyway`,
          }
          : {
            level: "error",
            component: "shutdown",
            code: "SHUTDOWN_FAILED",
            message: "the shutdown failed; exiting",
            error: outcome,
          },
      );
      options.exit(1);
    })();
}
