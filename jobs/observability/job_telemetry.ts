import {
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from "@opentelemetry/api";
import type { ClaimedJob } from "../store/job_store.ts";
import type { AttemptResult } from "../worker/run_attempt.ts";

/** Where job telemetry goes (default: the global OpenTelemetry providers; no-ops without an SDK). */
export interface JobTelemetryOptions {
  /** The tracer of attempt spans. */
  readonly tracer?: Tracer;
  /**
   * The meter of every job metric (over `meterProvider`); default: `@kit/jobs` for
   * `background_job_runs_total` and `background_job_duration_ms`, `kit` for the `kit.jobs.*` ones.
   */
  readonly meter?: Meter;
  /**
   * The provider of those meters (default: the global one, read when the application is
   * composed, so register the SDK's provider before).
   */
  readonly meterProvider?: MeterProvider;
  /**
   * `kit.jobs.count`, read from the store when the SDK collects, at most once per `maxAgeMs`
   * (default 10 000) within `timeoutMs` (default 5 000), while the application runs (see
   * `JobCountsGauge`); `false` leaves it to another process of the same store.
   */
  readonly jobCounts?: false | { readonly maxAgeMs?: number; readonly timeoutMs?: number };
}

/**
 * Traces and counts attempts through `@opentelemetry/api` only: a CONSUMER span `job <name>` per
 * attempt, child of the enqueuing span (its `traceparent` is stored with the job), carrying
 * `app.job.name`, `app.job.id`, `app.job.attempt` and `app.job.outcome`; the metrics
 * `background_job_runs_total` and `background_job_duration_ms` labelled `job`, `context`,
 * `status` and `error_code`; and `kit.jobs.attempts.failed`, the attempts whose failure was
 * recorded (retried or dead), labelled `queue` and `job`.
 */
export class JobTelemetry {
  readonly #tracer: Tracer;
  readonly #runs: Counter;
  readonly #duration: Histogram;
  readonly #scheduledRuns: Counter;
  readonly #scheduled: ReadonlySet<string>;
  readonly #failed: Counter;
  /** The attributes of `kit.jobs.attempts.failed` by job name, each made once. */
  readonly #failedLabels = new Map<string, Attributes>();

  /** Binds the instruments once; `scheduled` names the scheduled jobs (`scheduled_job_runs_total`). */
  constructor(options: JobTelemetryOptions = {}, scheduled: ReadonlySet<string> = new Set()) {
    this.#scheduled = scheduled;
    this.#tracer = options.tracer ?? trace.getTracer("@kit/jobs");
    const provider = options.meterProvider ?? metrics;
    const meter = options.meter ?? provider.getMeter("@kit/jobs");
    this.#failed = (options.meter ?? provider.getMeter("kit")).createCounter(
      "kit.jobs.attempts.failed",
      { description: "Attempts of jobs that failed (to be retried, or dead)", unit: "{attempt}" },
    );
    this.#runs = meter.createCounter("background_job_runs_total", {
      description: "Attempts of background jobs, by outcome",
    });
    this.#duration = meter.createHistogram("background_job_duration_ms", {
      description: "Duration of attempts of background jobs",
      unit: "ms",
    });
    this.#scheduledRuns = meter.createCounter("scheduled_job_runs_total", {
      description: "Runs of scheduled jobs, by outcome",
    });
  }

  /** The `traceparent` of the active span, to store with a job enqueued now. */
  static traceparent(): string | undefined {
    const span = trace.getActiveSpan();
    if (span === undefined) return undefined;
    const { traceId, spanId, traceFlags } = span.spanContext();
    if (!/^[0-9a-f]{32}$/.test(traceId) || /^0+$/.test(traceId)) return undefined;
    return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, "0")}`;
  }

  /** Starts the span of an attempt, child of the stored `traceparent`. */
  startAttempt(job: ClaimedJob): Span {
    const parent = parseTraceparent(job.traceparent);
    const context = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
    return this.#tracer.startSpan(`job ${job.name}`, {
      kind: SpanKind.CONSUMER,
      attributes: {
        "app.job.name": job.name,
        "app.job.id": job.id,
        "app.job.attempt": job.attempt,
      },
    }, context);
  }

  /** Ends the span of an attempt and records its metrics. */
  endAttempt(span: Span, job: ClaimedJob, result: AttemptResult, durationMs: number): void {
    span.setAttribute("app.job.outcome", result.outcome);
    if (result.errorCode !== undefined) span.setAttribute("app.job.error_code", result.errorCode);
    if (result.outcome === "retried" || result.outcome === "dead") {
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.errorCode ?? "failed" });
      if (result.error instanceof Error) span.recordException(result.error);
    }
    span.end();
    const labels: Attributes = {
      job: job.name,
      context: job.queue,
      status: result.outcome,
      ...(result.errorCode === undefined ? {} : { error_code: result.errorCode }),
    };
    this.#runs.add(1, labels);
    if (this.#scheduled.has(job.name)) this.#scheduledRuns.add(1, labels);
    this.#duration.record(durationMs, labels);
    if (result.outcome === "retried" || result.outcome === "dead") {
      let failed = this.#failedLabels.get(job.name);
      if (failed === undefined) {
        failed = Object.freeze({ queue: job.queue, job: job.name });
        this.#failedLabels.set(job.name, failed);
      }
      this.#failed.add(1, failed);
    }
  }
}

function parseTraceparent(value: string | undefined) {
  const match = value === undefined
    ? null
    : /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(value);
  if (match === null) return undefined;
  return {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
}
