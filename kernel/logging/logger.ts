import { type Token, token } from "../composition/token.ts";
import { type Clock, systemClock } from "../time/clock.ts";

/** How serious a log line is. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/**
 * One problem (or one fact) as a log line: where it happened (`component`), what it is (`code`,
 * stable and greppable), a short message, and the facts that help find it. A line is one problem,
 * never a stack trace unless `error` is a bug (an error kit did not expect).
 */
export interface LogRecord {
  /** How serious it is. */
  readonly level: LogLevel;
  /** The part of the system that logs (`http`, `jobs.worker`, `outbox.relay`, `db.pool`). */
  readonly component: string;
  /** What happened, as a stable code (`DATABASE_UNAVAILABLE`, `RELAY_STALLED`). */
  readonly code: string;
  /** One sentence for a person. */
  readonly message: string;
  /** How many times it happened when this line summarises repeats (default 1). */
  readonly count?: number;
  /** Facts that help (route, job id, queue); values must be JSON-serialisable. */
  readonly details?: Readonly<Record<string, unknown>>;
  /** The error behind it, when there is one: its stack is written only when `bug` is set. */
  readonly error?: unknown;
  /** Set when the line reports a bug (an error kit did not expect): the stack is written. */
  readonly bug?: boolean;
}

/** Where log lines go. Implementations must not throw. */
export interface Logger {
  /** Writes one record. */
  log(record: LogRecord): void;
}

/** The token of the logger. */
export const Logger: Token<Logger> = token<Logger>("Logger");

/** How {@linkcode consoleLogger} writes. */
export interface ConsoleLoggerOptions {
  /** `"text"` (default): one readable line; `"json"`: one JSON object per line, for shippers. */
  readonly format?: "text" | "json";
  /** Lines below this level are dropped (default `"info"`). */
  readonly level?: LogLevel;
  /** The clock whose time stamps the lines (default: the system clock). */
  readonly clock?: Clock;
  /** Where a finished line goes (default: `console.error` for warn and error, else `console.log`). */
  readonly write?: (line: string, level: LogLevel) => void;
}

const ranks: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * A logger writing one line per record: `2026-11-26T12:00:00.000Z ERROR outbox.relay
 * RELAY_STALLED the relay has not advanced for 30s count=1 pending=26594`, or the same as one JSON
 * object (`{"time":...,"level":"error","component":...,"code":...,"message":...,"count":1,...}`).
 *
 * @example
 * ```ts
 * import { consoleLogger } from "@kit/kernel";
 * const lines: string[] = [];
 * const logger = consoleLogger({ format: "json", write: (line) => lines.push(line) });
 * logger.log({ level: "warn", component: "db.pool", code: "POOL_STALLED", message: "no progress" });
 * JSON.parse(lines[0]!).code; // "POOL_STALLED"
 * ```
 */
export function consoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const format = options.format ?? "text";
  const threshold = ranks[options.level ?? "info"];
  const clock = options.clock ?? systemClock;
  const write = options.write ??
    ((line: string, level: LogLevel) =>
      level === "warn" || level === "error" ? console.error(line) : console.log(line));
  return {
    log(record) {
      if (ranks[record.level] < threshold) return;
      try {
        write(formatLogRecord(record, clock.now(), format), record.level);
      } catch {
        // A logger must not throw (a closed stdout, a value JSON cannot write).
      }
    },
  };
}

/** Formats one record as the text or JSON line {@linkcode consoleLogger} writes. */
export function formatLogRecord(record: LogRecord, time: Date, format: "text" | "json"): string {
  const error = record.error === undefined ? undefined : describeError(record.error, record.bug);
  if (format === "json") {
    return JSON.stringify({
      time: time.toISOString(),
      level: record.level,
      component: record.component,
      code: record.code,
      message: record.message,
      count: record.count ?? 1,
      ...record.details,
      ...(record.bug ? { bug: true } : {}),
      ...(error === undefined ? {} : { error }),
    }, jsonSafe);
  }
  const facts = Object.entries(record.details ?? {}).map(([key, value]) =>
    `${key}=${typeof value === "string" ? value : JSON.stringify(value, jsonSafe)}`
  );
  const head = [
    time.toISOString(),
    record.level.toUpperCase(),
    record.component,
    record.code,
    record.message,
    `count=${record.count ?? 1}`,
    ...facts,
    ...(record.bug ? ["bug=true"] : []),
  ].join(" ");
  if (error === undefined) return head;
  return record.bug ? `${head}\n${error}` : `${head} error=${JSON.stringify(error)}`;
}

function describeError(error: unknown, bug: boolean | undefined): string {
  if (error instanceof Error) {
    if (bug) return error.stack ?? `${error.name}: ${error.message}`;
    const code = (error as { code?: unknown }).code;
    return `${error.name}${typeof code === "string" ? ` ${code}` : ""}: ${error.message}`;
  }
  return String(error);
}

function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
