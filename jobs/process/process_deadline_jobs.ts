import {
  type BackgroundJobExecution,
  currentScope,
  type JobQueue,
  runInScope,
  TransactionManager,
} from "@kit/kernel";
import {
  type CompositionRoot,
  processManagerDeclarations,
  processRuntimeOf,
} from "@kit/kernel/internal";
import { type ProcessDeadlines, ProcessStore, type ScheduledDeadline } from "@kit/kernel/process";
import type { BackgroundJobClass } from "@kit/kernel/types";
import { Background } from "../declaration/background.ts";
import { jobSettingsOf } from "../declaration/background.ts";
import type { RunnableJob } from "../worker/run_attempt.ts";

/** The attempts of a deadline job before it dies (an operator may revive it). */
const deadlineAttempts = 10;

const deadlineJobs = new Map<string, BackgroundJobClass<ScheduledDeadline>>();

/**
 * The background job class of a process's deadlines: `<context>.<process>-deadline`, on the
 * context's queue, 10 attempts; one class per process name (an ordinary job: the dashboard lists
 * it, operators retry or cancel it).
 */
export function processDeadlineJob(process: string): BackgroundJobClass<ScheduledDeadline> {
  const existing = deadlineJobs.get(process);
  if (existing !== undefined) return existing;
  const job = class ProcessDeadlineJob {
    static readonly jobName = `${process}-deadline`;
    run(_payload: ScheduledDeadline, _execution: BackgroundJobExecution): Promise<void> {
      return Promise.reject(new Error(`The deadline job of '${process}' runs through its worker`));
    }
  };
  Background({ maxAttempts: deadlineAttempts })(job);
  deadlineJobs.set(process, job);
  return job;
}

/**
 * The deadline jobs of the application's process managers, for its worker: each runs the
 * deadline's transition in a unit of work of its own, as the job's actor (the system actor that
 * enqueued it in the transition) with the instance's tenant. A run that fails (the transition
 * threw, its transaction failed, a conflict) is retried as any job; a run after its transition
 * committed (the worker was killed before it recorded the job's success) is a no-op.
 */
export function processDeadlineRunners(root: CompositionRoot): Map<string, RunnableJob> {
  const runners = new Map<string, RunnableJob>();
  for (const declared of root.declarations(processManagerDeclarations)) {
    if (!root.container.has(ProcessStore)) {
      throw new Error(
        `Process manager '${declared.metadata.name}' needs a ProcessStore (InMemoryProcessStore, PostgresProcessStore) in the application's providers`,
      );
    }
    const job = processDeadlineJob(declared.metadata.name);
    runners.set(job.jobName, {
      settings: jobSettingsOf(job),
      instance: () => ({
        run: (payload: unknown) => {
          const runtime = processRuntimeOf(root.container, declared.target, declared.metadata);
          const execution = currentScope()!.execution;
          return root.container.resolve(TransactionManager).run((unitOfWork) =>
            runInScope(
              { execution, unitOfWork },
              () => runtime.handleDeadline(payload as ScheduledDeadline),
            )
          );
        },
      }),
    });
  }
  return runners;
}

/** Deadlines as background jobs, enqueued and cancelled in the transition's unit of work. */
export class JobProcessDeadlines implements ProcessDeadlines {
  readonly #queue: JobQueue;

  /** Schedules on this queue (the application's `JobQueue`). */
  constructor(queue: JobQueue) {
    this.#queue = queue;
  }

  /** Enqueues the deadline's job, due at its time, with the instance as its subject. */
  async schedule(deadline: ScheduledDeadline): Promise<string> {
    const { id } = await this.#queue.enqueue(processDeadlineJob(deadline.process), deadline, {
      runAt: new Date(deadline.at),
      subject: `${deadline.process}:${deadline.key}`,
    });
    return id;
  }

  /** Cancels the deadline's job once the unit commits. */
  async cancel(jobId: string): Promise<void> {
    await this.#queue.cancel(jobId);
  }
}
