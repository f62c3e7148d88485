import type { JobView } from "../store/job_reads.ts";
import type { JobStore, TenantReach } from "../store/job_store.ts";
import type { LiveWorker } from "../store/worker_registry.ts";

/** The most running jobs {@linkcode readWorkers} reads (pages of 200). */
export const workersRunningJobsLimit = 1_000;

/** A running job as the workers' view lists it. */
export interface WorkerJobView {
  /** The job. */
  readonly id: string;
  /** Its name. */
  readonly name: string;
  /** Its queue. */
  readonly queue: string;
}

/** A live worker with the running jobs it holds (of the reach). */
export interface WorkerView extends LiveWorker {
  /** The running jobs it holds that the work reaches. */
  readonly runningJobs: readonly WorkerJobView[];
}

/** What the dashboard shows of the workers. */
export interface WorkersView {
  /** The workers whose heartbeat has not expired, oldest first. */
  readonly workers: readonly WorkerView[];
  /**
   * The running jobs (of the reach) whose worker is gone: its heartbeat expired. The rescuer
   * returns each to waiting once its lease ends.
   */
  readonly orphanedJobs: readonly (WorkerJobView & { readonly workerId: string })[];
}

/**
 * The live workers with their running jobs, and the running jobs whose worker is gone, of the
 * jobs the reach covers (the first {@linkcode workersRunningJobsLimit} running jobs). A store
 * without a registry answers no workers and no orphans.
 *
 * @param store The store.
 * @param now The instant liveness is judged at.
 * @param reach The jobs the work reaches.
 * @returns The view.
 */
export async function readWorkers(
  store: JobStore,
  now: Date,
  reach: TenantReach,
): Promise<WorkersView> {
  if (store.workerList === undefined) return { workers: [], orphanedJobs: [] };
  const live = await store.workerList({ now });
  const running: JobView[] = [];
  let after: string | undefined;
  do {
    const page = await store.jobPage({
      reach,
      status: "running",
      limit: 200,
      ...(after === undefined ? {} : { after }),
    });
    running.push(...page.jobs);
    after = page.next;
  } while (after !== undefined && running.length < workersRunningJobsLimit);
  const held = new Map<string, WorkerJobView[]>(live.map((worker) => [worker.id, []]));
  const orphanedJobs: (WorkerJobView & { workerId: string })[] = [];
  for (const job of running.slice(0, workersRunningJobsLimit)) {
    if (job.workerId === undefined) continue;
    const brief = { id: job.id, name: job.name, queue: job.queue };
    const jobs = held.get(job.workerId);
    if (jobs === undefined) orphanedJobs.push({ ...brief, workerId: job.workerId });
    else jobs.push(brief);
  }
  return {
    workers: live.map((worker) => ({ ...worker, runningJobs: held.get(worker.id) ?? [] })),
    orphanedJobs,
  };
}

/**
 * Whether a job's worker is gone: it is running, its claim named a worker, and that worker's
 * heartbeat expired (the store keeps a registry).
 *
 * @param store The store.
 * @param job The job.
 * @param now The instant liveness is judged at.
 * @returns True when the worker is gone.
 */
export async function workerGone(store: JobStore, job: JobView, now: Date): Promise<boolean> {
  if (job.status !== "running" || job.workerId === undefined) return false;
  if (store.workerList === undefined) return false;
  const live = await store.workerList({ now });
  return !live.some((worker) => worker.id === job.workerId);
}
