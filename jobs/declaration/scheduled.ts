import type { BackgroundJobExecution, Duration } from "@kit/kernel";
import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
  toMilliseconds,
} from "@kit/kernel/internal";
import type { BackgroundJobClass } from "@kit/kernel/types";
import { Background, type BackgroundOptions } from "./background.ts";

/** The payload of a scheduled job's run: the tick it runs for. */
export interface ScheduledTick {
  /** The instant of the tick (ISO 8601), a multiple of the interval since the epoch. */
  readonly tick: string;
}

/** The options of `@Scheduled`: the interval, and the background-job settings of each run. */
export interface ScheduledOptions extends BackgroundOptions {
  /** How often it runs: every multiple of this interval since the epoch (`'5m'`, `'1h'`, `'1d'`). */
  readonly every: Duration;
}

/** What `@Scheduled` records. */
export interface ScheduledJobSettings {
  /** The interval as declared (`'5m'`, or ms). */
  readonly every: Duration;
  /** The interval, in ms. */
  readonly everyMs: number;
}

/** The declaration kind of scheduled jobs. */
export const scheduledJobDeclarations: DeclarationKind<ScheduledJobSettings> = declarationKind<
  ScheduledJobSettings
>("scheduled-job");

/**
 * Declares a job that runs because time passed: at every tick of its interval, one run (an
 * enqueue keyed by the tick, so that however many processes schedule it, one job is kept per
 * tick), retried like any background job. Counted by `scheduled_job_runs_total`.
 *
 * @example
 * ```ts ignore
 * @Scheduled({ every: "1h" })
 * export class SendReminders {
 *   static readonly jobName = "notifications.send-reminders";
 *   constructor(private readonly commands: CommandBus) {}
 *   async run(payload: ScheduledTick, execution: BackgroundJobExecution): Promise<void> {
 *     await this.commands.execute(new SendDueReminders(execution.actor, payload.tick));
 *   }
 * }
 * ```
 */
export function Scheduled(
  options: ScheduledOptions,
): KitClassDecorator<
  BackgroundJobClass<ScheduledTick> & {
    new (
      ...args: never[]
    ): { run(payload: ScheduledTick, execution: BackgroundJobExecution): Promise<void> };
  }
> {
  const everyMs = toMilliseconds(options.every);
  if (everyMs < 1_000) {
    throw new RangeError(`@Scheduled() every must be at least 1s, got ${everyMs} ms`);
  }
  const background = Background(options);
  return classDecorator("Scheduled", (target) => {
    background(target);
    scheduledJobDeclarations.record(target, { every: options.every, everyMs });
  });
}

/** The latest tick at or before the instant, for an interval. */
export function latestTick(now: Date, everyMs: number): Date {
  return new Date(Math.floor(now.getTime() / everyMs) * everyMs);
}

/** The first tick after the instant, for an interval. */
export function nextTick(now: Date, everyMs: number): Date {
  return new Date((Math.floor(now.getTime() / everyMs) + 1) * everyMs);
}
