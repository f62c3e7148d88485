import type { BackgroundJobExecution } from "@kit/kernel";
import {
  classDecorator,
  type KitClassDecorator,
  scheduledJobDeclarations,
  scheduledJobDeclarer,
  type ScheduledJobSettings,
} from "@kit/kernel/internal";
import type { BackgroundJobClass, ScheduledOptions, ScheduledTick } from "@kit/kernel/types";

// The declaration itself is the kernel's, shared with the module builder's `scheduledJob`: a job
// declared either way is the same to the scheduler, the worker and the dashboard.
export {
  scheduledJobDeclarations,
  type ScheduledJobSettings,
  type ScheduledOptions,
  type ScheduledTick,
};

/**
 * Declares a job that runs because time passed: at every tick of its interval, one run (an
 * enqueue keyed by the tick, so that however many processes schedule it, one job is kept per
 * tick), retried like any background job. Counted by `scheduled_job_runs_total`. Without
 * decorators, the module builder's `scheduledJob(job, options)` declares it the same way.
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
  return classDecorator("Scheduled", scheduledJobDeclarer(options, "@Scheduled()"));
}

/** The latest tick at or before the instant, for an interval. */
export function latestTick(now: Date, everyMs: number): Date {
  return new Date(Math.floor(now.getTime() / everyMs) * everyMs);
}

/** The first tick after the instant, for an interval. */
export function nextTick(now: Date, everyMs: number): Date {
  return new Date((Math.floor(now.getTime() / everyMs) + 1) * everyMs);
}
