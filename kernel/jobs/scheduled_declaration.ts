import { type DeclarationKind, declarationKind } from "../declarations/declaration.ts";
import { type Duration, toMilliseconds } from "../time/duration.ts";
import { backgroundJobDeclarer, type BackgroundOptions } from "./background_declaration.ts";
import type { BackgroundJobClass } from "./job_queue.ts";

/** The payload of a scheduled job's run: the tick it runs for. */
export interface ScheduledTick {
  /** The instant of the tick (ISO 8601), a multiple of the interval since the epoch. */
  readonly tick: string;
}

/**
 * The options of a scheduled job, decorated (`@Scheduled`) or built (`builder.scheduledJob`): the
 * interval, and the background-job settings of each run.
 */
export interface ScheduledOptions extends BackgroundOptions {
  /** How often it runs: every multiple of this interval since the epoch (`'5m'`, `'1h'`, `'1d'`). */
  readonly every: Duration;
}

/** What a scheduled job's declaration records. */
export interface ScheduledJobSettings {
  /** The interval as declared (`'5m'`, or ms). */
  readonly every: Duration;
  /** The interval, in ms. */
  readonly everyMs: number;
}

/** The declaration kind of scheduled jobs, whichever style declared them. */
export const scheduledJobDeclarations: DeclarationKind<ScheduledJobSettings> = declarationKind<
  ScheduledJobSettings
>("scheduled-job");

/**
 * Checks a scheduled job's options and answers what records the job, as a background job and as a
 * scheduled one: the one rule set of `@Scheduled()` and `builder.scheduledJob(..)`. The options
 * are refused at once (`declaredBy` names who in the message); the class's `jobName` when the
 * returned function records it.
 */
export function scheduledJobDeclarer(
  options: ScheduledOptions,
  declaredBy: string,
): (target: BackgroundJobClass) => void {
  const everyMs = toMilliseconds(options?.every);
  if (everyMs < 1_000) {
    throw new RangeError(`${declaredBy} every must be at least 1s, got ${everyMs} ms`);
  }
  const { every, ...background } = options;
  const record = backgroundJobDeclarer(background, declaredBy);
  return (target) => {
    record(target);
    scheduledJobDeclarations.record(target, { every, everyMs });
  };
}
