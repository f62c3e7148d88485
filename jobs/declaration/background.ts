import type { Duration } from "@kit/kernel";
import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
  toMilliseconds,
} from "@kit/kernel/internal";
import type { BackgroundJobClass } from "@kit/kernel/types";
import { type Backoff, exponentialBackoff } from "./backoff.ts";

/** The options of `@Background`. */
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

/** The declaration kind of background jobs. */
export const backgroundJobDeclarations: DeclarationKind<BackgroundJobSettings> = declarationKind<
  BackgroundJobSettings
>("background-job");

const namePattern = /^([a-z][a-z0-9-]*)\.[a-z][a-z0-9-]*$/;

/**
 * Declares a background job: a class with `static readonly jobName = '<context>.<job-name>'` and
 * `run(payload, execution)`, its dependencies by constructor.
 *
 * @example
 * ```ts ignore
 * @Background({ timeout: "30m", lease: "1m" })
 * export class ClearCalendar {
 *   static readonly jobName = "scheduling.clear-calendar";
 *   constructor(private readonly commands: CommandBus) {}
 *   async run(payload: ClearCalendarPayload, execution: BackgroundJobExecution): Promise<void> {
 *     ...
 *   }
 * }
 * ```
 */
export function Background(options: BackgroundOptions = {}): KitClassDecorator<BackgroundJobClass> {
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(`@Background() maxAttempts must be an integer from 1, got ${maxAttempts}`);
  }
  const leaseMs = toMilliseconds(options.lease ?? "30s");
  if (leaseMs < 1_000) {
    throw new RangeError(`@Background() lease must be at least 1s, got ${leaseMs} ms`);
  }
  const timeoutMs = options.timeout === undefined ? undefined : toMilliseconds(options.timeout);
  const backoff = options.backoff ?? exponentialBackoff();
  return classDecorator<BackgroundJobClass>("Background", (target) => {
    backgroundJobDeclarations.record(target, {
      ...settingsName(target),
      maxAttempts,
      backoff,
      leaseMs,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  });
}

/** The settings of a job class, or an error naming the class when it is not declared. */
export function jobSettingsOf(job: BackgroundJobClass): BackgroundJobSettings {
  const settings = typeof job === "function" ? backgroundJobDeclarations.read(job) : undefined;
  if (settings === undefined) {
    const name = typeof job === "function" ? job.name : String(job);
    throw new TypeError(`'${name}' is not a background job: decorate it with @Background()`);
  }
  return settings;
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
