/**
 * Logging and error reports: the `Logger` port every component writes through (one line per
 * problem), the console logger and the summarising logger in front of it, the record format for a
 * logger of one's own, and the default error reporter with the test that tells a known failure (an
 * outage, a conflict of transactions) from a bug.
 *
 * @module
 */
export { type ErrorReport, loggingErrorReporter } from "./errors/error_reporter.ts";
export { type KnownFailure, knownFailure } from "./errors/known_failure.ts";
export {
  consoleLogger,
  type ConsoleLoggerOptions,
  formatLogRecord,
  Logger,
  type LogLevel,
  type LogRecord,
} from "./logging/logger.ts";
export {
  type SummarisingLogger,
  summarisingLogger,
  type SummarisingLoggerOptions,
} from "./logging/summarising_logger.ts";
