import { type Token, token } from "../composition/token.ts";
import type { Logger } from "../logging/logger.ts";
import { knownFailure } from "./known_failure.ts";

/** Where an unexpected error is reported from. */
export interface ErrorReport {
  /** Where the work came from (`http`, `queue`, `event`, ...). */
  readonly origin: string;
  /** Facts that help find the cause (route, job name, event type, correlation id). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * The port unexpected errors go to: a failed request (500), an attempt failing with something
 * other than a domain error, a failed callback after commit.
 */
export interface ErrorReporter {
  /** Reports one error. Must not throw. */
  report(error: unknown, report: ErrorReport): void;
}

/** The token of the error reporter. */
export const ErrorReporter: Token<ErrorReporter> = token<ErrorReporter>("ErrorReporter");

const components: Readonly<Record<string, string>> = {
  http: "http",
  queue: "jobs.worker",
  schedule: "jobs.scheduler",
  event: "outbox.relay",
};

/**
 * The reporter that writes each error as one line of the logger (the application's default,
 * over a summarising console logger): a service out of reach (the database, Redis: connection
 * refused or lost, `CONNECT_TIMEOUT`, `ACQUIRE_TIMEOUT`, a statement time-out, ...) is a `warn`
 * line with the outage's code (`DATABASE_UNAVAILABLE`, `REDIS_UNAVAILABLE`) and its reason, no
 * stack; a deadlock or serialization failure a `warn` line `CONCURRENT_UPDATE`; any other error a
 * bug, an `error` line `UNEXPECTED_ERROR` with `bug: true` and its stack. A job lost because its
 * store failed is an `error` line `JOB_LOST` whatever the cause. The component is the origin's
 * (`http`, `jobs.worker` for `queue`, `outbox.relay` for `event`, `jobs.scheduler` for
 * `schedule`); the report's details are the line's.
 *
 * @example
 * ```ts
 * import { consoleLogger } from "@kit/kernel";
 * import { loggingErrorReporter } from "@kit/kernel/logging";
 * const lines: string[] = [];
 * const reporter = loggingErrorReporter(consoleLogger({ format: "json", write: (l) => lines.push(l) }));
 * reporter.report(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }), { origin: "queue" });
 * JSON.parse(lines[0]!).code; // "SERVICE_UNAVAILABLE"
 * ```
 */
export function loggingErrorReporter(logger: Logger): ErrorReporter {
  return {
    report(error, report) {
      const component = components[report.origin] ?? report.origin;
      const details = report.details ?? {};
      const known = knownFailure(error);
      if (details.stage === "lost-job") {
        logger.log({
          level: "error",
          component,
          code: "JOB_LOST",
          message: `A job was lost: its store failed (${known?.reason ?? describe(error)})`,
          details,
          ...(known === undefined ? { error, bug: true } : {}),
        });
        return;
      }
      if (known !== undefined) {
        logger.log({
          level: "warn",
          component,
          code: known.code,
          message: known.kind === "outage"
            ? `${serviceOf(known.code)} is out of reach (${known.reason}): retried once it is back`
            : `Transactions in conflict (${known.reason}): retried`,
          details: { ...details, reason: known.reason },
          error,
        });
        return;
      }
      logger.log({
        level: "error",
        component,
        code: "UNEXPECTED_ERROR",
        message: `An unexpected error (a bug): ${describe(error)}`,
        details,
        error,
        bug: true,
      });
    },
  };
}

function serviceOf(code: string): string {
  if (code === "REDIS_UNAVAILABLE") return "Redis";
  const service = code.replace(/_UNAVAILABLE$/, "").toLowerCase().replaceAll("_", " ");
  return service === "service" ? "A service" : `The ${service}`;
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split("\n", 1)[0]!;
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}
