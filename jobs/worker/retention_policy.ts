import type { Duration } from "@kit/kernel";
import { toMilliseconds } from "@kit/kernel/internal";
import type { FinishedJobStatus } from "../store/job_retention.ts";

/**
 * How long finished jobs of a queue are kept, by status, and how many at most. A duration keeps a
 * job that long after it finished; `false` keeps it whatever its age (a count may still bound it).
 */
export interface JobRetentionRule {
  /** How long a succeeded job is kept (default `"24h"`). */
  readonly succeeded?: Duration | false;
  /** How long a cancelled job is kept (default `"24h"`). */
  readonly cancelled?: Duration | false;
  /** How long a dead job is kept, for an operator to look at or revive (default `"7d"`). */
  readonly dead?: Duration | false;
  /**
   * The most finished jobs kept per queue and status: the ones that finished last (default
   * `false`: no bound but the age).
   */
  readonly maxCount?: number | false;
}

/**
 * The retention of finished jobs (`WorkerSettings.retention`): a rule for every queue, rules of
 * named queues (each field it leaves out is the top rule's), and the wait between two passes.
 */
export interface JobRetention extends JobRetentionRule {
  /** Rules of named queues, over the top rule. */
  readonly queues?: Readonly<Record<string, JobRetentionRule>>;
  /** The wait between the end of a pass and the next (default `"1m"`). */
  readonly interval?: Duration;
}

/** The rule of one queue and status, resolved to ms. */
export interface ResolvedRetention {
  /** Jobs finished more than this many ms ago go; absent: kept whatever their age. */
  readonly maxAgeMs?: number;
  /** The most kept; absent: no bound. */
  readonly maxCount?: number;
}

/** The defaults: River's (`CompletedJobRetentionPeriod` 24 h, cancelled 24 h, discarded 7 days). */
export const defaultRetention: Readonly<Record<FinishedJobStatus, Duration>> = {
  succeeded: "24h",
  cancelled: "24h",
  dead: "7d",
};

/**
 * Resolves, checks and answers the rule of each queue and status: the queue's field, else the top
 * rule's, else the default.
 *
 * @param retention The settings.
 * @returns The rule of a queue and status.
 * @throws {RangeError} When a duration or count is out of bounds (naming the queue and field).
 */
export function resolveRetention(
  retention: JobRetention,
): (queue: string, status: FinishedJobStatus) => ResolvedRetention {
  const check = (rule: JobRetentionRule, where: string): void => {
    for (const status of ["succeeded", "cancelled", "dead"] as const) {
      const age = rule[status];
      if (age === undefined || age === false) continue;
      const ms = millisecondsOf(age);
      if (!Number.isSafeInteger(ms) || ms < 1) {
        throw new RangeError(
          `The retention of ${status} jobs${where} must be a duration from 1 ms or false, got ${
            JSON.stringify(age)
          }`,
        );
      }
    }
    const count = rule.maxCount;
    if (count !== undefined && count !== false && (!Number.isSafeInteger(count) || count < 0)) {
      throw new RangeError(
        `The retention's maxCount${where} must be a whole number from 0 or false, got ${count}`,
      );
    }
  };
  check(retention, "");
  for (const [queue, rule] of Object.entries(retention.queues ?? {})) {
    check(rule, ` of queue '${queue}'`);
  }
  return (queue, status) => {
    const rule = retention.queues?.[queue] ?? {};
    const age = rule[status] ?? retention[status] ?? defaultRetention[status];
    const count = rule.maxCount ?? retention.maxCount ?? false;
    return {
      ...(age === false ? {} : { maxAgeMs: toMilliseconds(age) }),
      ...(count === false ? {} : { maxCount: count }),
    };
  };
}

/** The duration in ms; NaN when it is not one. */
export function millisecondsOf(duration: Duration): number {
  try {
    return toMilliseconds(duration);
  } catch {
    return NaN;
  }
}
