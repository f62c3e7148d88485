import {
  type Clock,
  currentScope,
  type ErrorReporter,
  type JobQueue,
  systemActor,
  TenantRequiredError,
  tenantsReached,
  uuidv7,
} from "@kit/kernel";
import { toMilliseconds, type UnitOfWork } from "@kit/kernel/internal";
import type {
  BackgroundJobClass,
  EnqueueOptions,
  EnqueuePayload,
  EnqueueResult,
  JsonValue,
  QueuedJob,
} from "@kit/kernel/types";
import { jobSettingsOf } from "../declaration/background.ts";
import { JobTelemetry } from "../observability/job_telemetry.ts";
import type { JobStore, NewJob, TenantReach } from "../store/job_store.ts";

/** Told when a store that writes after commit failed to keep a job that was acknowledged. */
export type LostJobHandler = (job: NewJob, error: unknown) => void;

/**
 * The `JobQueue` of an application: enqueues in the unit of work under way (or after it commits,
 * on a store that cannot share it), stamped with the work's actor, tenant and correlation.
 */
export class BackgroundJobs implements JobQueue {
  readonly #store: JobStore;
  readonly #clock: Clock;
  readonly #onLostJob: LostJobHandler;
  readonly #afterInsert: () => void;
  /** The idempotency keys staged in each unit of work under way, with their job's id. */
  readonly #staged = new WeakMap<UnitOfWork, Map<string, string>>();

  /** Builds the queue over a store. */
  constructor(options: {
    store: JobStore;
    clock: Clock;
    errorReporter: ErrorReporter;
    onLostJob?: LostJobHandler;
    afterInsert?: () => void;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#onLostJob = options.onLostJob ?? ((job, error) =>
      options.errorReporter.report(error, {
        origin: "queue",
        details: { stage: "lost-job", job: job.name, jobId: job.id },
      }));
    this.#afterInsert = options.afterInsert ?? (() => {});
  }

  /** Enqueues a job for the actor of the work under way (the system actor when none). */
  async enqueue<J extends BackgroundJobClass>(
    job: J,
    payload: EnqueuePayload<J>,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    const [result] = await this.enqueueMany(job, [{ payload, options }]);
    return result!;
  }

  /**
   * Enqueues many jobs of one class in one write (one statement on Postgres), each with its own
   * options; answers their results in order.
   */
  async enqueueMany<J extends BackgroundJobClass>(
    job: J,
    items: readonly { readonly payload: EnqueuePayload<J>; readonly options?: EnqueueOptions }[],
  ): Promise<EnqueueResult[]> {
    const settings = jobSettingsOf(job);
    const now = this.#clock.now();
    const scope = currentScope();
    const execution = scope?.execution;
    const traceparent = JobTelemetry.traceparent();
    const jobs = items.map(({ payload, options = {} }): NewJob => {
      if (
        options.idempotencyKey !== undefined &&
        (typeof options.idempotencyKey !== "string" || options.idempotencyKey === "")
      ) {
        throw new TypeError(
          `The idempotencyKey of job '${settings.name}' must be a non-empty string`,
        );
      }
      if (options.subject !== undefined && typeof options.subject !== "string") {
        throw new TypeError(`The subject of job '${settings.name}' must be a string`);
      }
      return {
        id: uuidv7(now.getTime()),
        name: settings.name,
        queue: settings.queue,
        payload: toJson(settings.name, payload),
        actor: execution?.actor ?? systemActor,
        correlationId: execution?.correlationId ?? uuidv7(now.getTime()),
        maxAttempts: settings.maxAttempts,
        runAt: dueAt(settings.name, now, options),
        createdAt: now,
        ...(execution?.tenantId === undefined ? {} : { tenantId: execution.tenantId }),
        ...(traceparent === undefined ? {} : { traceparent }),
        ...(options.subject === undefined ? {} : { subject: options.subject }),
        ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
      };
    });
    if (jobs.length === 0) return [];
    const unit = scope?.unitOfWork;
    if (unit !== undefined && !this.#store.sharesTransaction) return await this.#stage(jobs, unit);
    const results = await this.#insert(jobs, unit);
    if (unit === undefined) this.#afterInsert();
    return results;
  }

  /**
   * Stages jobs in a unit of work on a store that writes after commit: the store answers at once
   * (the kept id with `duplicate: true` for a key kept already) and writes once the unit commits;
   * a key staged earlier in the same unit answers that job's id. A write that fails after commit
   * goes to `onLostJob`.
   */
  async #stage(jobs: readonly NewJob[], unit: UnitOfWork): Promise<EnqueueResult[]> {
    let staged = this.#staged.get(unit);
    if (staged === undefined) this.#staged.set(unit, staged = new Map());
    const earlier = jobs.map((job) => {
      const key = keyOf(job);
      return key === undefined ? undefined : staged.get(key);
    });
    const fresh = jobs.filter((_, i) => earlier[i] === undefined);
    const answered = await this.#insert(fresh, unit, true);
    fresh.forEach((job, i) => {
      const key = keyOf(job);
      if (key !== undefined && answered[i]?.duplicate !== true) staged.set(key, job.id);
    });
    let next = 0;
    return jobs.map((_, i): EnqueueResult => {
      const id = earlier[i];
      return id === undefined ? answered[next++]! : { id, duplicate: true };
    });
  }

  async #insert(
    jobs: readonly NewJob[],
    unit: UnitOfWork | undefined,
    afterCommit = false,
  ): Promise<EnqueueResult[]> {
    if (jobs.length === 0) return [];
    const results: EnqueueResult[] = [];
    // The jobs a write after commit was to keep: those not answered as duplicates.
    const written = (from: number, to: number) =>
      jobs.slice(from, to).filter((_, i) => results[from + i]?.duplicate !== true);
    const on = (from: number, to: number) =>
      unit === undefined
        ? {}
        : { unit: afterCommit ? this.#reporting(unit, () => written(from, to)) : unit };
    if (this.#store.jobInsertMany !== undefined) {
      results.push(...await this.#store.jobInsertMany({ jobs, ...on(0, jobs.length) }));
      return results;
    }
    for (const [i, job] of jobs.entries()) {
      results.push(await this.#store.jobInsert({ job, ...on(i, i + 1) }));
    }
    return results;
  }

  /**
   * The unit as a store that writes after commit sees it: its writes, once the unit committed,
   * wake the worker, or go to `onLostJob` when they fail (the command has answered already).
   */
  #reporting(unit: UnitOfWork, written: () => readonly NewJob[]): UnitOfWork {
    return {
      id: unit.id,
      transaction: unit.transaction,
      lock: (key) => unit.lock(key),
      whenCommitted: (write) =>
        unit.whenCommitted(async () => {
          try {
            await write();
            this.#afterInsert();
          } catch (error) {
            for (const lost of written()) this.#onLostJob(lost, error);
          }
        }),
    };
  }

  /** Cancels a job the work under way reaches, once its unit of work commits. */
  async cancel(id: string): Promise<boolean> {
    const scope = currentScope();
    const reach = reachOf();
    const unit = scope?.unitOfWork;
    if (unit !== undefined && !this.#store.sharesTransaction) {
      const job = await this.#store.jobFind({ id, reach });
      if (job === undefined || (job.status !== "waiting" && job.status !== "running")) return false;
      unit.whenCommitted(() => this.#store.jobCancel({ id, reach, now: this.#clock.now() }));
      return true;
    }
    return this.#store.jobCancel({ id, reach, now: this.#clock.now(), ...(unit ? { unit } : {}) });
  }

  /** The job as the work under way may see it; never its payload. */
  find(id: string): Promise<QueuedJob | undefined> {
    let reach: TenantReach;
    try {
      reach = reachOf();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#store.jobFind({ id, reach });
  }

  /** Revives a dead job (operators): waiting, due now, attempts back to zero. */
  async retryDead(id: string): Promise<boolean> {
    const unit = currentScope()?.unitOfWork;
    const reach = reachOf();
    if (unit !== undefined && !this.#store.sharesTransaction) {
      const job = await this.#store.jobFind({ id, reach });
      if (job?.status !== "dead") return false;
      unit.whenCommitted(() => this.#store.jobRetryDead({ id, reach, now: this.#clock.now() }));
      return true;
    }
    return this.#store.jobRetryDead({
      id,
      reach,
      now: this.#clock.now(),
      ...(unit ? { unit } : {}),
    });
  }

  /** Deletes finished jobs (succeeded, dead, cancelled) finished before the instant. */
  purgeFinished(before: Date): Promise<number> {
    return this.#store.jobPurgeFinished({ before });
  }
}

/**
 * The jobs the work under way reaches, as a store filters them: every tenant's for the system
 * actor's work without a tenant; its tenant's and the elevated ones'. Other work without a tenant
 * reaches no tenant's jobs: `TENANT_REQUIRED`, as a repository answers it. Outside any work (an
 * operator's script calling `application.backgroundJobs`, a test) every tenant's: requests, jobs
 * and event handlers always run inside their work.
 */
function reachOf(): TenantReach {
  const execution = currentScope()?.execution;
  if (execution === undefined) return {};
  const reached = tenantsReached(execution);
  if (reached.all) return {};
  const [tenantId, ...elevated] = reached.tenants;
  if (tenantId === undefined) throw new TenantRequiredError();
  return { tenantId, ...(elevated.length > 0 ? { elevatedTenants: elevated } : {}) };
}

/** The job's idempotency key, unique per name and tenant; undefined without one. */
function keyOf(job: NewJob): string | undefined {
  return job.idempotencyKey === undefined
    ? undefined
    : `${job.name}\u0000${job.tenantId ?? ""}\u0000${job.idempotencyKey}`;
}

function dueAt(name: string, now: Date, options: EnqueueOptions): Date {
  if (options.delay !== undefined && options.runAt !== undefined) {
    throw new TypeError(`Job '${name}' takes delay or runAt, not both`);
  }
  if (options.runAt !== undefined) {
    if (!(options.runAt instanceof Date) || Number.isNaN(options.runAt.getTime())) {
      throw new TypeError(`The runAt of job '${name}' must be a valid Date`);
    }
    return options.runAt;
  }
  if (options.delay !== undefined) return new Date(now.getTime() + toMilliseconds(options.delay));
  return now;
}

function toJson(name: string, payload: unknown): JsonValue {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (error) {
    throw new TypeError(`The payload of job '${name}' is not JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw new TypeError(`The payload of job '${name}' is not JSON`);
  return JSON.parse(text) as JsonValue;
}
