import { type BackgroundJobExecution, type Duration, JobQueue, type Logger } from "@kit/kernel";
import { type ApplicationPlugin, type CompositionRoot, toMilliseconds } from "@kit/kernel/internal";
import { ProcessDeadlines } from "@kit/kernel/process";
import type { BackgroundJobClass } from "@kit/kernel/types";
import { backgroundJobDeclarations, jobSettingsOf } from "./declaration/background.ts";
import { scheduledJobDeclarations, type ScheduledTick } from "./declaration/scheduled.ts";
import { ScheduledJobs, type ScheduleEntry, Scheduler } from "./worker/scheduler.ts";
import { BackgroundJobs, type LostJobHandler } from "./queue/background_jobs.ts";
import type { JobStore } from "./store/job_store.ts";
import { JobTelemetry, type JobTelemetryOptions } from "./observability/job_telemetry.ts";
import { JobCountsGauge } from "./observability/job_counts_gauge.ts";
import type { RunnableJob } from "./worker/run_attempt.ts";
import { Worker, type WorkerIdentity, type WorkerSettings } from "./worker/worker.ts";
import { observeLiveWorkers } from "./worker/worker_metrics.ts";
import { type MeterProvider, metrics } from "@opentelemetry/api";
import { JobProcessDeadlines, processDeadlineRunners } from "./process/process_deadline_jobs.ts";

/** The options of {@linkcode jobsPlugin}. */
export interface JobsPluginOptions<S extends JobStore = JobStore> {
  /** Where jobs are kept. */
  readonly store: S;
  /** Run the worker in this process when the application starts (default false: enqueue only). */
  readonly start?: boolean;
  /** Attempts at once per queue: a number for all, or `{ <context>: n }` (default 10). */
  readonly concurrency?: number | Readonly<Record<string, number>>;
  /**
   * Jobs claimed ahead of free slots per queue, like graphile-worker's local queue: a number for
   * all, or `{ <context>: n }` (default 0, off: a claim takes free slots only). They wait in the
   * worker's local queue, so that the next job is at hand when a run ends and one claim takes
   * several jobs (more throughput on a busy queue). The price is fairness: a job claimed ahead is
   * under its lease (`find` shows it running, its attempt counted) though it has not started, and
   * another worker with free slots cannot take it, so jobs wait behind busy slots while a worker
   * sits idle, and the worker that claims first takes more than its share of the queue. One not
   * started within a third of its lease is given back uncounted and never run under that claim,
   * and so are those waiting when the worker stops. One held more than a tenth of its lease is
   * asked about first (a report, extending its lease), so that a job cancelled meanwhile does not
   * start. A worker that dies holding them leaves them to be claimed again once their lease ends,
   * as it does its running jobs.
   */
  readonly prefetch?: number | Readonly<Record<string, number>>;
  /** The wait between two polls of an idle queue (default 1 s). */
  readonly pollInterval?: Duration;
  /** How long `stop()` waits for running attempts (default 30 s). */
  readonly grace?: Duration;
  /** Retention of finished jobs (default on: 24 h, dead 7 days); see `WorkerSettings.retention`. */
  readonly retention?: WorkerSettings["retention"];
  /** Told when a store writing after commit lost an acknowledged job (default: the error reporter). */
  readonly onLostJob?: LostJobHandler;
  /**
   * Tracer and meter of attempts and of `kit.jobs.count` (default: the global OpenTelemetry
   * providers).
   */
  readonly telemetry?: JobTelemetryOptions;
  /**
   * Who this process's worker is in the store's registry of live workers (the entry point gives
   * `host: Deno.hostname()`, `pid: Deno.pid`; the id defaults to a random UUID), and how it keeps
   * itself live: a heartbeat every `heartbeatInterval` (default 10 s), live `heartbeatTtl` after
   * each (default 30 s); the rescuer of ended leases passes every `rescueInterval` (default 30 s).
   */
  readonly worker?: WorkerIdentity & {
    readonly heartbeatInterval?: Duration;
    readonly heartbeatTtl?: Duration;
    readonly rescueInterval?: Duration;
  };
  /** Where the worker's heartbeat and rescuer lines go (default `consoleLogger()`). */
  readonly logger?: Logger;
  /**
   * The provider of the meter `kit` (`kit.jobs.leases.expired`, `kit.workers.live`); default the
   * global one.
   */
  readonly meterProvider?: MeterProvider;
}

/** What the jobs plugin adds to the application (`application.backgroundJobs`). */
export interface BackgroundJobsApi<S extends JobStore = JobStore> {
  /** The queue (also provided to classes as `JobQueue`). */
  readonly queue: BackgroundJobs;
  /** Enqueues a job (see `JobQueue.enqueue`). */
  readonly enqueue: JobQueue["enqueue"];
  /** Cancels a job (see `JobQueue.cancel`). */
  readonly cancel: JobQueue["cancel"];
  /** Finds a job (see `JobQueue.find`). */
  readonly find: JobQueue["find"];
  /** Revives a dead job. */
  readonly retryDead: (id: string) => Promise<boolean>;
  /** The store. */
  readonly store: S;
  /** The worker of this process. */
  readonly worker: Worker;
  /**
   * Schedules the current tick of scheduled jobs, then runs what is due on the application's
   * clock; throws what an attempt threw (tests).
   */
  runDue(): Promise<number>;
}

/**
 * Plugs background jobs into the application: provides `JobQueue`, collects the `@Background`
 * jobs of every module, and with `start: true` runs the worker for their queues.
 *
 * @example
 * ```ts ignore
 * const application = composeApplication({
 *   modules,
 *   clock,
 *   plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }) },
 * });
 * await application.backgroundJobs.runDue();
 * ```
 */
export function jobsPlugin<S extends JobStore>(
  options: JobsPluginOptions<S>,
): ApplicationPlugin<BackgroundJobsApi<S>> {
  return {
    name: "background-jobs",
    setup(root: CompositionRoot): BackgroundJobsApi<S> {
      const jobs = new Map<string, RunnableJob>();
      for (const declared of root.declarations(backgroundJobDeclarations)) {
        const existing = jobs.get(declared.metadata.name);
        if (existing !== undefined) {
          throw new Error(`Background job name '${declared.metadata.name}' is declared twice`);
        }
        const target = declared.target;
        jobs.set(declared.metadata.name, {
          settings: declared.metadata,
          instance: () =>
            root.container.resolve(target) as {
              run(payload: unknown, execution: BackgroundJobExecution): Promise<void>;
            },
        });
      }
      for (const [name, runner] of processDeadlineRunners(root)) {
        if (jobs.has(name)) throw new Error(`Background job name '${name}' is declared twice`);
        jobs.set(name, runner);
      }
      const schedule: ScheduleEntry[] = root.declarations(scheduledJobDeclarations).map((
        declared,
      ) => ({
        job: declared.target as unknown as BackgroundJobClass<ScheduledTick>,
        name: (declared.target as unknown as { jobName: string }).jobName,
        queue: jobSettingsOf(declared.target as unknown as BackgroundJobClass).queue,
        every: declared.metadata.every,
        everyMs: declared.metadata.everyMs,
      }));
      root.container.register(ScheduledJobs, { useValue: schedule }, "the background-jobs plugin");
      const meter = (options.meterProvider ?? metrics).getMeter("kit");
      const presence = options.worker ?? {};
      const worker = new Worker({
        identity: {
          ...(presence.id === undefined ? {} : { id: presence.id }),
          ...(presence.host === undefined ? {} : { host: presence.host }),
          ...(presence.pid === undefined ? {} : { pid: presence.pid }),
        },
        meter,
        store: options.store,
        clock: root.clock,
        jobs,
        errorReporter: root.errorReporter,
        logger: options.logger ?? root.logger,
        telemetry: new JobTelemetry(options.telemetry, new Set(schedule.map((e) => e.name))),
        settings: {
          ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
          ...(options.prefetch === undefined ? {} : { prefetch: options.prefetch }),
          pollIntervalMs: toMilliseconds(options.pollInterval ?? "1s"),
          graceMs: toMilliseconds(options.grace ?? "30s"),
          heartbeatIntervalMs: toMilliseconds(presence.heartbeatInterval ?? "10s"),
          heartbeatTtlMs: toMilliseconds(presence.heartbeatTtl ?? "30s"),
          rescueIntervalMs: toMilliseconds(presence.rescueInterval ?? "30s"),
          ...(options.retention === undefined ? {} : { retention: options.retention }),
        },
      });
      observeLiveWorkers({ store: options.store, clock: root.clock, meter, queues: worker.queues });
      const queue = new BackgroundJobs({
        store: options.store,
        clock: root.clock,
        errorReporter: root.errorReporter,
        afterInsert: () => worker.wake(),
        ...(options.onLostJob ? { onLostJob: options.onLostJob } : {}),
      });
      root.container.register(JobQueue, { useValue: queue }, "the background-jobs plugin");
      const deadlines = new JobProcessDeadlines(queue);
      root.container.register(
        ProcessDeadlines,
        { useValue: deadlines },
        "the background-jobs plugin",
      );
      const scheduler = new Scheduler({
        queue,
        clock: root.clock,
        entries: schedule,
        errorReporter: root.errorReporter,
      });
      const counts = options.telemetry?.jobCounts;
      if (counts !== false) {
        const gauge = new JobCountsGauge({
          ...options.telemetry,
          ...counts,
          store: options.store,
          clock: root.clock,
        });
        root.onStart(() => gauge.start());
        root.onStop(() => gauge.stop());
      }
      if (options.start === true) {
        root.onStart(async () => {
          await worker.start();
          scheduler.start();
        });
        root.onStop(async () => {
          await scheduler.stop();
          await worker.stop();
        });
      }
      return {
        queue,
        enqueue: queue.enqueue.bind(queue),
        cancel: queue.cancel.bind(queue),
        find: queue.find.bind(queue),
        retryDead: queue.retryDead.bind(queue),
        store: options.store,
        worker,
        runDue: async () => {
          await scheduler.scheduleDue();
          return await worker.runDue();
        },
      };
    },
  };
}
