import {
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
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
  /** The meter of `background_job_runs_total` and `background_job_duration_ms`. */
  readonly meter?: Meter;
}

/**
 * Traces and counts attempts through `@opentelemetry/api` only: a CONSUMER span `job <name>` per
 * attempt, child of the enqueuing span (its `traceparent` is stored with the job), carrying
 * `app.job.name`, `app.job.id`, `app.job.attempt` and `app.job.outcome`; the metrics
 * `background_job_runs_total` and `background_job_duration_ms` labelled `job`, `context`,
 * `status` and `error_code`.
 */
export class JobTelemetry {
  readonly #tracer: Tracer;
  readonly #runs: Counter;
  readonly #duration: Histogram;
  readonly #scheduledRuns: Counter;
  readonly #scheduled: ReadonlySet<string>;

  /** Binds the instruments once; `scheduled` names the scheduled jobs (`scheduled_job_runs_total`). */
  constructor(options: JobTelemetryOptions = {}, scheduled: ReadonlySet<string> = new Set()) {
    this.#scheduled = scheduled;
    this.#tracer = options.tracer ?? trace.getTracer("@kit/jobs");
    const meter = options.meter ?? metrics.getMeter("@kit/jobs");
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
