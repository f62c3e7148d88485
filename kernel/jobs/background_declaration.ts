import { type DeclarationKind, declarationKind } from "../declarations/declaration.ts";
import { type Duration, toMilliseconds } from "../time/duration.ts";
import { type Backoff, exponentialBackoff } from "./backoff.ts";
import type { BackgroundJobClass } from "./job_queue.ts";

/** The options of a background job, decorated (`@Background`) or built (`builder.backgroundJob`). */
export interface BackgroundOptions {
  /** Aborts an attempt after this long and counts it failed (default: none). */
  readonly timeout?: Duration;
  /** How long a claim holds the job without a heartbeat (default 30 s). */
  readonly lease?: Duration;
  /** Attempts before the job dies (default 5). */
  readonly maxAttempts?: number;
  /** The wait before a retry (default: 1 s doubled up to 5 min). */
  readonly backoff?: Backoff;
}

/** The settings of a declared job, with its defaults applied. */
export interface BackgroundJobSettings {
  /** `<context>.<job-name>`. */
  readonly name: string;
  /** The queue: the context, first part of the name. */
  readonly queue: string;
  /** Attempts before the job dies. */
  readonly maxAttempts: number;
  /** The wait before a retry. */
  readonly backoff: Backoff;
  /** The lease of a claim, in ms. */
  readonly leaseMs: number;
  /** The timeout of an attempt, in ms, if any. */
  readonly timeoutMs?: number;
}

/** The declaration kind of background jobs, whichever style declared them. */
export const backgroundJobDeclarations: DeclarationKind<BackgroundJobSettings> = declarationKind<
  BackgroundJobSettings
>("background-job");

const namePattern = /^([a-z][a-z0-9-]*)\.[a-z][a-z0-9-]*$/;

/**
 * Checks a job's options and answers what records the job: the one rule set of `@Background()`
 * and `builder.backgroundJob(..)`. The options are refused at once (`declaredBy` names who in the
 * message); the class's `jobName` when the returned function records it.
 */
export function backgroundJobDeclarer(
  options: BackgroundOptions,
  declaredBy: string,
): (target: BackgroundJobClass) => void {
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(`${declaredBy} maxAttempts must be an integer from 1, got ${maxAttempts}`);
  }
  const leaseMs = toMilliseconds(options.lease ?? "30s");
  if (leaseMs < 1_000) {
    throw new RangeError(`${declaredBy} lease must be at least 1s, got ${leaseMs} ms`);
  }
  const timeoutMs = options.timeout === undefined ? undefined : toMilliseconds(options.timeout);
  const backoff = options.backoff ?? exponentialBackoff();
  return (target) => {
    backgroundJobDeclarations.record(target, {
      ...settingsName(target),
      maxAttempts,
      backoff,
      leaseMs,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  };
}

function settingsName(target: BackgroundJobClass): { name: string; queue: string } {
  const name = (target as { jobName?: unknown }).jobName;
  const match = typeof name === "string" ? namePattern.exec(name) : null;
  if (match === null) {
    throw new TypeError(
      `Background job '${target.name}' needs static readonly jobName = '<context>.<job-name>' (kebab-case), got ${
        JSON.stringify(name)
      }`,
    );
  }
  return { name: name as string, queue: match[1]! };
}
