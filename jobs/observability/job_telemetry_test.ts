import assert from "node:assert/strict";
import { context, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  type BackgroundJobExecution,
  composeApplication,
  ConceptError,
  defineModule,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, InMemoryJobStore, jobsPlugin } from "../mod.ts";
import { TestReader } from "../../test_support/metric_reader.ts";

@Background({ maxAttempts: 2 })
class Work {
  static readonly jobName = "telemetry.work";
  run(payload: { fail: boolean }, _execution: BackgroundJobExecution): Promise<void> {
    if (payload.fail) throw ConceptError.refusal("SLOT_TAKEN", "taken");
    return Promise.resolve();
  }
}

Deno.test("Each attempt is a CONSUMER span `job <name>`, child of the enqueuing span, and is counted", async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const tracer = tracerProvider.getTracer("test");
  trace.setGlobalTracerProvider(tracerProvider);
  try {
    const app = composeApplication({
      modules: [defineModule("telemetry", { declarations: [Work] })],
      clock: new TestClock(),
      plugins: {
        backgroundJobs: jobsPlugin({
          store: new InMemoryJobStore(),
          telemetry: {
            tracer: tracerProvider.getTracer("@kit/jobs"),
            meter: meterProvider.getMeter("@kit/jobs"),
          },
        }),
      },
    });
    const jobs = app.backgroundJobs as BackgroundJobsApi;
    let enqueuing: { traceId: string; spanId: string } | undefined;
    const { id } = await tracer.startActiveSpan("POST /work", async (span) => {
      enqueuing = span.spanContext();
      try {
        return await jobs.enqueue(Work, { fail: false });
      } finally {
        span.end();
      }
    });
    await jobs.enqueue(Work, { fail: true });
    await assert.rejects(() => jobs.runDue());

    const spans = exporter.getFinishedSpans().filter((s) => s.name === "job telemetry.work");
    assert.equal(spans.length, 2);
    const ok = spans.find((s) => s.attributes["app.job.id"] === id)!;
    assert.equal(ok.kind, SpanKind.CONSUMER);
    assert.equal(ok.spanContext().traceId, enqueuing!.traceId);
    assert.equal(ok.parentSpanContext?.spanId, enqueuing!.spanId);
    assert.equal(ok.attributes["app.job.name"], "telemetry.work");
    assert.equal(ok.attributes["app.job.attempt"], 1);
    assert.equal(ok.attributes["app.job.outcome"], "succeeded");
    const failed = spans.find((s) => s.attributes["app.job.id"] !== id)!;
    assert.equal(failed.attributes["app.job.outcome"], "retried");
    assert.equal(failed.attributes["app.job.error_code"], "SLOT_TAKEN");

    const { resourceMetrics } = await reader.collect();
    const all = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const runs = all.find((m) => m.descriptor.name === "background_job_runs_total")!;
    const points = runs.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value }));
    assert.deepEqual(
      points.sort((a, b) => String(a.attributes.status).localeCompare(String(b.attributes.status))),
      [
        {
          attributes: {
            job: "telemetry.work",
            context: "telemetry",
            status: "retried",
            error_code: "SLOT_TAKEN",
          },
          value: 1,
        },
        {
          attributes: { job: "telemetry.work", context: "telemetry", status: "succeeded" },
          value: 1,
        },
      ],
    );
    assert.ok(all.some((m) => m.descriptor.name === "background_job_duration_ms"));
  } finally {
    trace.disable();
    context.disable();
  }
});
