import type { QueuedJobStatus } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import { checkJobPruneParams, type JobPruneParams } from "./job_retention.ts";
import type { EnqueueResult, QueuedJob } from "@kit/kernel/types";
import type {
  ClaimedJob,
  JobClaimParams,
  JobCompleteManyParams,
  JobFailParams,
  JobReportParams,
  JobStore,
  NewJob,
  ReportOutcome,
  StoredJob,
  TenantReach,
} from "./job_store.ts";
import {
  checkJobPageLimit,
  decodeJobCursor,
  encodeJobCursor,
  type JobActivityParams,
  type JobCountsParams,
  type JobCursor,
  type JobPage,
  type JobPageParams,
  type JobQueueActivity,
  type JobQueueCounts,
  type JobView,
} from "./job_reads.ts";
import type {
  JobRescueParams,
  LiveWorker,
  RescuedJob,
  WorkerHeartbeatParams,
} from "./worker_registry.ts";

/** The options of a {@linkcode ContextRoutedJobStore}. */
export interface ContextRoutedJobStoreOptions {
  /**
   * The store of each queue (context): `{ scheduling: new PostgresJobStore(sql, { schema:
   * "scheduling" }) }`. Every store shares the enqueuing transaction, or none does.
   */
  readonly stores: Readonly<Record<string, JobStore>>;
  /**
   * The store that keeps the registry of live workers (a worker process is no context's); default:
   * the store of the first queue by name.
   */
  readonly workers?: JobStore;
}

/**
 * One store made of a store per context: each job is kept by the store of its queue (its context,
 * the first part of its name), so on PostgreSQL each context's jobs are in its own schema's
 * `background_jobs`, enqueued in the use case's transaction. A claim asks only the queue's
 * store, so the worker keeps its loop, slots, prefetch and wake-ups per queue; the operators'
 * reads (counts, pages, activity) merge every store's. A job's attempt is told to the store that
 * claimed it (its lease token names the queue). A job named by its id alone (`find`, `cancel`,
 * `retryDead`, `jobView`) is looked up in each store: one indexed read per store.
 *
 * @example
 * ```ts ignore
 * const store = new ContextRoutedJobStore({
 *   stores: Object.fromEntries(
 *     ["billing", "scheduling"].map((context) => [
 *       context,
 *       new PostgresJobStore(sql, { schema: context }),
 *     ]),
 *   ),
 * });
 * ```
 */
export class ContextRoutedJobStore implements JobStore {
  /** True when every store's writes join the caller's transaction. */
  readonly sharesTransaction: boolean;
  readonly #byQueue: ReadonlyMap<string, JobStore>;
  /** Every store once, in the order of their first queue by name. */
  readonly #stores: readonly JobStore[];
  readonly #workers: JobStore;

  /** Routes each queue to its store; refuses no store, a bad queue name, or mixed transactions. */
  constructor(options: ContextRoutedJobStoreOptions) {
    const queues = Object.keys(options.stores).sort();
    if (queues.length === 0) {
      throw new TypeError("A ContextRoutedJobStore needs a store per queue, got none");
    }
    for (const queue of queues) {
      if (!/^[a-z][a-z0-9_-]*$/.test(queue)) {
        throw new TypeError(
          `A ContextRoutedJobStore's queue is a context name (lower-case letters, digits, - and _), got ${
            JSON.stringify(queue)
          }`,
        );
      }
    }
    this.#byQueue = new Map(queues.map((queue) => [queue, options.stores[queue]!]));
    this.#stores = [...new Set(this.#byQueue.values())];
    const sharing = new Set(this.#stores.map((store) => store.sharesTransaction));
    if (sharing.size > 1) {
      throw new TypeError(
        "A ContextRoutedJobStore's stores all share the enqueuing transaction, or none does",
      );
    }
    this.sharesTransaction = this.#stores[0]!.sharesTransaction;
    this.#workers = options.workers ?? this.#stores[0]!;
    const listening = this.#stores.filter((store) => store.jobListen !== undefined);
    this.jobListen = listening.length === 0 ? undefined : async (onJob) => {
      const stops: (() => Promise<void>)[] = [];
      for (const store of listening) {
        // Stores on one database hear every queue's notification: each passes on its own queues'.
        stops.push(
          await store.jobListen!((queue) => {
            if (this.#byQueue.get(queue) === store) onJob(queue);
          }),
        );
      }
      return async () => {
        await Promise.all(stops.map((stop) => stop()));
      };
    };
  }

  /** The queues routed, sorted. */
  get queues(): readonly string[] {
    return [...this.#byQueue.keys()];
  }

  /** Inserts the job in its queue's store. */
  async jobInsert(params: { job: NewJob; unit?: UnitOfWork }): Promise<EnqueueResult> {
    return await this.#storeOf(params.job.queue).jobInsert(params);
  }

  /** Inserts the jobs in their queues' stores, one call per store; answers in order. */
  async jobInsertMany(
    params: { jobs: readonly NewJob[]; unit?: UnitOfWork },
  ): Promise<readonly EnqueueResult[]> {
    const results: EnqueueResult[] = new Array(params.jobs.length);
    const groups = new Map<JobStore, number[]>();
    params.jobs.forEach((job, i) => {
      const store = this.#storeOf(job.queue);
      groups.set(store, [...(groups.get(store) ?? []), i]);
    });
    const unit = params.unit === undefined ? {} : { unit: params.unit };
    for (const [store, indexes] of groups) {
      const jobs = indexes.map((i) => params.jobs[i]!);
      const answered = store.jobInsertMany !== undefined
        ? await store.jobInsertMany({ jobs, ...unit })
        : await sequentially(jobs, (job) => store.jobInsert({ job, ...unit }));
      indexes.forEach((index, j) => results[index] = answered[j]!);
    }
    return results;
  }

  /** Claims from the queue's store; each lease token names the queue. */
  async jobClaim(params: JobClaimParams): Promise<ClaimedJob[]> {
    const claimed = await this.#storeOf(params.queue).jobClaim(params);
    return claimed.map((job) => ({ ...job, leaseToken: `${params.queue}:${job.leaseToken}` }));
  }

  /** Marks the attempt's job succeeded, in the store that claimed it. */
  jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const held = this.#held(params.leaseToken);
    return held === undefined
      ? Promise.resolve(false)
      : held.store.jobComplete({ ...params, leaseToken: held.token });
  }

  /** Marks the attempts' jobs succeeded, one call per store; answers in order. */
  async jobCompleteMany(params: JobCompleteManyParams): Promise<readonly boolean[]> {
    const results: boolean[] = params.jobs.map(() => false);
    const groups = new Map<JobStore, number[]>();
    const tokens: string[] = [];
    params.jobs.forEach((job, i) => {
      const held = this.#held(job.leaseToken);
      if (held === undefined) return;
      tokens[i] = held.token;
      groups.set(held.store, [...(groups.get(held.store) ?? []), i]);
    });
    await Promise.all([...groups].map(async ([store, indexes]) => {
      const jobs = indexes.map((i) => ({ id: params.jobs[i]!.id, leaseToken: tokens[i]! }));
      const done = store.jobCompleteMany !== undefined
        ? await store.jobCompleteMany({ jobs, now: params.now })
        : await sequentially(jobs, (job) => store.jobComplete({ ...job, now: params.now }));
      indexes.forEach((index, j) => results[index] = done[j]!);
    }));
    return results;
  }

  /** Records the failed attempt in the store that claimed it. */
  jobFail(params: JobFailParams): Promise<boolean> {
    const held = this.#held(params.leaseToken);
    return held === undefined
      ? Promise.resolve(false)
      : held.store.jobFail({ ...params, leaseToken: held.token });
  }

  /** Gives the job back to the store that claimed it. */
  jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const held = this.#held(params.leaseToken);
    return held === undefined
      ? Promise.resolve(false)
      : held.store.jobRelease({ ...params, leaseToken: held.token });
  }

  /** Reports to the store that claimed the job. */
  jobReport(params: JobReportParams): Promise<ReportOutcome> {
    const held = this.#held(params.leaseToken);
    return held === undefined
      ? Promise.resolve("stale")
      : held.store.jobReport({ ...params, leaseToken: held.token });
  }

  /** Cancels the job in the store that keeps it (asked one after another, in the unit). */
  async jobCancel(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    for (const store of this.#stores) if (await store.jobCancel(params)) return true;
    return false;
  }

  /** The job, from the store that keeps it (every store asked at once). */
  async jobFind(params: { id: string; reach: TenantReach }): Promise<QueuedJob | undefined> {
    const found = await Promise.all(this.#stores.map((store) => store.jobFind(params)));
    return found.find((job) => job !== undefined);
  }

  /** Revives the dead job in the store that keeps it (asked one after another, in the unit). */
  async jobRetryDead(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    for (const store of this.#stores) if (await store.jobRetryDead(params)) return true;
    return false;
  }

  /** Deletes finished jobs in every store; answers how many in all. */
  async jobPurgeFinished(params: { before: Date }): Promise<number> {
    const purged = await Promise.all(this.#stores.map((store) => store.jobPurgeFinished(params)));
    return purged.reduce((sum, n) => sum + n, 0);
  }

  /** Every store's counts, by queue, queues sorted by name. */
  async jobCounts(params: JobCountsParams): Promise<readonly JobQueueCounts[]> {
    const byQueue = new Map<string, JobQueueCounts>();
    for (const counts of await this.#everyStore((store) => store.jobCounts(params))) {
      const kept = byQueue.get(counts.queue);
      byQueue.set(
        counts.queue,
        kept === undefined ? counts : {
          queue: counts.queue,
          waiting: kept.waiting + counts.waiting,
          running: kept.running + counts.running,
          succeeded: kept.succeeded + counts.succeeded,
          dead: kept.dead + counts.dead,
          cancelled: kept.cancelled + counts.cancelled,
        },
      );
    }
    return [...byQueue.keys()].sort().map((queue) => byQueue.get(queue)!);
  }

  /**
   * A page of every store's jobs, newest first: each store's page after the same cursor, merged.
   * A store that answered a `next` may hold jobs older than its last one answered, so the page
   * ends at the newest such position.
   */
  async jobPage(params: JobPageParams): Promise<JobPage> {
    checkJobPageLimit(params.limit);
    if (params.after !== undefined) decodeJobCursor(params.after);
    if (params.queue !== undefined) {
      const store = this.#byQueue.get(params.queue);
      return store === undefined ? { jobs: [] } : await store.jobPage(params);
    }
    const pages = await Promise.all(this.#stores.map((store) => store.jobPage(params)));
    const bounds = pages.flatMap((page) =>
      page.next === undefined ? [] : [decodeJobCursor(page.next)]
    );
    const bound = bounds.sort(newestFirst)[0];
    const jobs = pages.flatMap((page) => page.jobs).sort((a, b) =>
      newestFirst(positionOf(a), positionOf(b))
    );
    const within = bound === undefined
      ? jobs
      : jobs.filter((job) => newestFirst(positionOf(job), bound) <= 0);
    const page = within.slice(0, params.limit);
    const last = page.at(-1);
    const more = bound !== undefined || jobs.length > page.length;
    if (!more) return { jobs: page };
    const next = last === undefined ? bound! : positionOf(last);
    return { jobs: page, next: encodeJobCursor(next) };
  }

  /** The activity of the queue's store, or of every store. */
  async jobActivity(params: JobActivityParams): Promise<readonly JobQueueActivity[]> {
    if (params.queue !== undefined) {
      const store = this.#byQueue.get(params.queue);
      return store === undefined ? [] : await store.jobActivity(params);
    }
    const activity = await this.#everyStore((store) => store.jobActivity(params));
    return activity.sort((a, b) => a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0);
  }

  /** The job with its history, from the store that keeps it (every store asked at once). */
  async jobView(params: { id: string; reach: TenantReach }): Promise<JobView | undefined> {
    const found = await Promise.all(this.#stores.map((store) => store.jobView(params)));
    return found.find((job) => job !== undefined);
  }

  /** Every job kept in the queue's store, or in every store, oldest first. */
  async jobList(params: { queue?: string; status?: QueuedJobStatus } = {}): Promise<StoredJob[]> {
    if (params.queue !== undefined) {
      const store = this.#byQueue.get(params.queue);
      return store === undefined ? [] : await store.jobList(params);
    }
    const jobs = await this.#everyStore((store) => store.jobList(params));
    return jobs.sort((a, b) => -newestFirst(positionOf(a), positionOf(b)));
  }

  /** Takes back ended leases in every store, up to `limit` in all. */
  async jobRescue(params: JobRescueParams): Promise<readonly RescuedJob[]> {
    const rescued: RescuedJob[] = [];
    for (const store of this.#stores) {
      const limit = params.limit - rescued.length;
      if (limit <= 0) break;
      if (store.jobRescue !== undefined) {
        rescued.push(...await store.jobRescue({ ...params, limit }));
      }
    }
    return rescued;
  }

  /** Registers the worker in the registry's store. */
  async workerHeartbeat(params: WorkerHeartbeatParams): Promise<void> {
    await this.#workers.workerHeartbeat?.(params);
  }

  /** Forgets the worker in the registry's store. */
  async workerDeregister(params: { id: string }): Promise<void> {
    await this.#workers.workerDeregister?.(params);
  }

  /** The live workers of the registry's store. */
  async workerList(params: { now: Date }): Promise<readonly LiveWorker[]> {
    return await this.#workers.workerList?.(params) ?? [];
  }

  /** Prunes in the store of the queue; refuses a queue whose store cannot prune. */
  async jobPrune(params: JobPruneParams): Promise<number> {
    checkJobPruneParams(params);
    const store = this.#storeOf(params.queue);
    if (store.jobPrune === undefined) {
      throw new Error(`The job store of queue '${params.queue}' cannot prune`);
    }
    return await store.jobPrune(params);
  }

  /**
   * Calls `onJob(queue)` when a job of one of the routed queues is committed, told by its own
   * store; undefined when no store can tell.
   */
  readonly jobListen?: (onJob: (queue: string) => void) => Promise<() => Promise<void>>;

  #storeOf(queue: string): JobStore {
    const store = this.#byQueue.get(queue);
    if (store === undefined) {
      throw new Error(
        `No job store for queue '${queue}': the ContextRoutedJobStore routes ${
          this.queues.map((q) => `'${q}'`).join(", ")
        }`,
      );
    }
    return store;
  }

  /** The store and its own token of a lease token this store answered; undefined for another. */
  #held(leaseToken: string): { store: JobStore; token: string } | undefined {
    const at = leaseToken.indexOf(":");
    const store = at < 0 ? undefined : this.#byQueue.get(leaseToken.slice(0, at));
    return store === undefined ? undefined : { store, token: leaseToken.slice(at + 1) };
  }

  async #everyStore<T>(read: (store: JobStore) => Promise<readonly T[]>): Promise<T[]> {
    return (await Promise.all(this.#stores.map(read))).flat();
  }
}

function positionOf(job: { readonly createdAt: Date; readonly id: string }): JobCursor {
  return { createdAt: job.createdAt.getTime(), id: job.id };
}

/** Negative when `a` comes first newest first (later creation, then greater id). */
function newestFirst(a: JobCursor, b: JobCursor): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

async function sequentially<T, R>(
  items: readonly T[],
  each: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await each(item));
  return results;
}
