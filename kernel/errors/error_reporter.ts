import { type Token, token } from "../composition/token.ts";

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

/** The default reporter: writes to `console.error`. */
export const consoleErrorReporter: ErrorReporter = {
  report(error, report) {
    console.error(`[kit] unexpected error (origin ${report.origin})`, error, report.details ?? {});
  },
};
