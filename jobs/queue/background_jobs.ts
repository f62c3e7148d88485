import {
  type BackgroundJobClass,
  type Clock,
  currentScope,
  type EnqueueOptions,
  type EnqueuePayload,
  type EnqueueResult,
  type ErrorReporter,
  type JobQueue,
  type JsonValue,
  type QueuedJob,
  systemActor,
  toMilliseconds,
  type UnitOfWork,
  uuidv7,
} from "@kit/kernel";
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
    if (unit !== undefined && !this.#store.sharesTransaction) {
      unit.whenCommitted(async () => {
        try {
          await this.#insert(jobs, undefined);
          this.#afterInsert();
        } catch (error) {
          for (const lost of jobs) this.#onLostJob(lost, error);
        }
      });
      return jobs.map((j) => ({ id: j.id }));
    }
    const results = await this.#insert(jobs, unit);
    if (unit === undefined) this.#afterInsert();
    return results;
  }

  async #insert(jobs: readonly NewJob[], unit: UnitOfWork | undefined): Promise<EnqueueResult[]> {
    if (this.#store.jobInsertMany !== undefined) {
      return [...await this.#store.jobInsertMany({ jobs, ...(unit ? { unit } : {}) })];
    }
    const results: EnqueueResult[] = [];
    for (const job of jobs) {
      results.push(await this.#store.jobInsert({ job, ...(unit ? { unit } : {}) }));
    }
    return results;
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
    return this.#store.jobFind({ id, reach: reachOf() });
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

function reachOf(): TenantReach {
  const execution = currentScope()?.execution;
  if (execution?.tenantId === undefined) return {};
  return {
    tenantId: execution.tenantId,
    ...(execution.elevatedTenants ? { elevatedTenants: execution.elevatedTenants } : {}),
  };
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
