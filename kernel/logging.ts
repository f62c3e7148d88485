/**
 * A logger or an error reporter of one's own: the record every component writes (`LogRecord`), the
 * line `consoleLogger` makes of it (`formatLogRecord`), the console and summarising loggers'
 * options, and the default error reporter with the test that tells a known failure (an outage, a
 * conflict of transactions) from a bug. The `Logger` port, `consoleLogger` and `summarisingLogger`
 * are in `@kit/kernel`.
 *
 * @module
 */
export { type ErrorReport, loggingErrorReporter } from "./errors/error_reporter.ts";
export { type KnownFailure, knownFailure } from "./errors/known_failure.ts";
export { type ConsoleLoggerOptions, formatLogRecord, type LogRecord } from "./logging/logger.ts";
export type { SummarisingLogger, SummarisingLoggerOptions } from "./logging/summarising_logger.ts";
