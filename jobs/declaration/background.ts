import {
  backgroundJobDeclarations,
  backgroundJobDeclarer,
  type BackgroundJobSettings,
  classDecorator,
  type KitClassDecorator,
} from "@kit/kernel/internal";
import type { BackgroundJobClass, BackgroundOptions } from "@kit/kernel/types";

// The declaration itself is the kernel's, shared with the module builder's `backgroundJob`: a job
// declared either way is the same to the worker, the dashboard and the docs.
export { backgroundJobDeclarations, type BackgroundJobSettings, type BackgroundOptions };

/**
 * Declares a background job: a class with `static readonly jobName = '<context>.<job-name>'` and
 * `run(payload, execution)`, its dependencies by constructor. Without decorators, the module
 * builder's `backgroundJob(job, options)` declares it the same way.
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
  return classDecorator<BackgroundJobClass>(
    "Background",
    backgroundJobDeclarer(options, "@Background()"),
  );
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
