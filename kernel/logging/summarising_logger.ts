import { type Clock, systemClock } from "../time/clock.ts";
import type { Logger, LogLevel, LogRecord } from "./logger.ts";

/** How {@linkcode summarisingLogger} summarises. */
export interface SummarisingLoggerOptions {
  /** How long repeats of a problem are counted before their summary line is written (default 10 s). */
  readonly windowMs?: number;
  /** The clock whose time opens and ends the windows (default: the system clock). */
  readonly clock?: Clock;
  /**
   * How many problems are counted at once (default 1,000): the records of a new problem beyond
   * that are not written but counted, and written as one `LOG_LINES_DROPPED` line when the window ends.
   */
  readonly maxProblems?: number;
}

/** A logger that writes the first line of each problem at once and its repeats as one summary. */
export interface SummarisingLogger extends Logger {
  /** Writes the summaries of every open window now, and closes the windows. */
  flush(): void;
}

interface Window {
  readonly endsAt: number;
  readonly windowMs: number;
  /** Records counted since the line last written. */
  repeats: number;
  /** The last record counted. */
  last: LogRecord | undefined;
  level: LogLevel;
}

const ranks: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };
const dropped = "logging\u0000LOG_LINES_DROPPED";

/**
 * Wraps a logger so that a flood of one problem is one line, then one summary per window: the
 * first record of a problem (its `component` and `code`; for a bug, also the error's name and
 * message) is written at once and opens a window of `windowMs`; the records of the same problem
 * within the window are counted, and written as one line with `count` (how many there were, the
 * last one's message and details, no stack) when the window ends. A problem still repeating then
 * opens the next window; one that stopped is forgotten. {@linkcode SummarisingLogger.flush} writes
 * what is counted now (before a process exits). At most `maxProblems` problems are counted at
 * once, so memory stays bounded whatever is logged.
 *
 * @example Ten thousand failures in one window are two lines
 * ```ts
 * import { consoleLogger, summarisingLogger } from "@kit/kernel";
 * import { TestClock } from "@kit/kernel/testing";
 * const lines: string[] = [];
 * const clock = new TestClock();
 * const logger = summarisingLogger(consoleLogger({ clock, write: (line) => lines.push(line) }), {
 *   clock,
 * });
 * for (let i = 0; i < 10_000; i++) {
 *   logger.log({ level: "warn", component: "db.pool", code: "DATABASE_UNAVAILABLE", message: "down" });
 * }
 * logger.flush();
 * lines.length; // 2: the first, then "count=9999"
 * ```
 */
export function summarisingLogger(
  inner: Logger,
  options: SummarisingLoggerOptions = {},
): SummarisingLogger {
  const windowMs = options.windowMs ?? 10_000;
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new RangeError(`A summarising logger's windowMs must be above 0, got ${windowMs}`);
  }
  const maxProblems = options.maxProblems ?? 1_000;
  if (!Number.isInteger(maxProblems) || maxProblems < 1) {
    throw new RangeError(
      `A summarising logger's maxProblems must be an integer from 1, got ${maxProblems}`,
    );
  }
  const clock = options.clock ?? systemClock;
  // In the order their windows end: a window opened later ends later.
  const windows = new Map<string, Window>();
  let timer: AbortController | undefined;
  let timerAt = Infinity;

  const write = (record: LogRecord) => {
    try {
      inner.log(record);
    } catch {
      // A logger must not throw.
    }
  };

  const summarise = (key: string, window: Window) => {
    const last = window.last;
    if (last === undefined || window.repeats === 0) return;
    const seconds = window.windowMs / 1_000;
    if (key === dropped) {
      write({
        level: "warn",
        component: "logging",
        code: "LOG_LINES_DROPPED",
        message:
          `Lines of problems beyond the first ${maxProblems} were dropped in the last ${seconds} s`,
        count: window.repeats,
      });
      return;
    }
    write({
      level: window.level,
      component: last.component,
      code: last.code,
      message: `${last.message} (repeated in the last ${seconds} s)`,
      count: window.repeats,
      ...(last.details === undefined ? {} : { details: last.details }),
      ...(last.bug ? { bug: true } : {}),
    });
  };

  const open = (key: string, now: number): Window => {
    const window: Window = {
      endsAt: now + windowMs,
      windowMs,
      repeats: 0,
      last: undefined,
      level: "debug",
    };
    windows.delete(key);
    windows.set(key, window);
    return window;
  };

  /** Ends the windows due at `now`: a summary for each that counted, the next window for it. */
  const endDue = (now: number) => {
    const due: [string, Window][] = [];
    for (const entry of windows) {
      if (entry[1].endsAt > now) break;
      due.push(entry);
    }
    for (const [key, window] of due) {
      windows.delete(key);
      if (window.repeats === 0) continue;
      summarise(key, window);
      // The next window, unless it too is over (with nothing counted: a late timer).
      if (key !== dropped && window.endsAt + windowMs > now) open(key, window.endsAt);
    }
  };

  const schedule = () => {
    const first = windows.values().next();
    const at = first.done ? Infinity : first.value.endsAt;
    if (at === timerAt) return;
    timer?.abort();
    timer = undefined;
    timerAt = at;
    if (at === Infinity) return;
    const controller = new AbortController();
    timer = controller;
    clock.sleep(Math.max(0, at - clock.now().getTime()), controller.signal).then(
      () => {
        if (timer !== controller) return;
        timer = undefined;
        timerAt = Infinity;
        endDue(clock.now().getTime());
        schedule();
      },
      () => {},
    );
  };

  return {
    log(record) {
      const now = clock.now().getTime();
      endDue(now);
      const key = keyOf(record);
      let window = windows.get(key);
      if (window === undefined) {
        const overflow = windows.size - (windows.has(dropped) ? 1 : 0) >= maxProblems;
        if (!overflow) {
          write(record);
          open(key, now);
          schedule();
          return;
        }
        window = windows.get(dropped) ?? open(dropped, now);
      }
      window.repeats += record.count ?? 1;
      window.last = record;
      if (ranks[record.level] > ranks[window.level]) window.level = record.level;
      schedule();
    },
    flush() {
      for (const [key, window] of windows) summarise(key, window);
      windows.clear();
      schedule();
    },
  };
}

function keyOf(record: LogRecord): string {
  const key = `${record.component}\u0000${record.code}`;
  if (!record.bug) return key;
  const error = record.error;
  return error instanceof Error ? `${key}\u0000${error.name}\u0000${error.message}` : key;
}
