/**
 * What measuring a request adds to it: `deno bench -A http/observability/http_metrics_bench.ts`.
 * Without an SDK the pipeline only checks that it has no metrics; with one, it reads the clock
 * twice, finds the route's series (attributes made once) and records, and the SDK's
 * `histogram.record` is most of the cost (benched alone with the same attributes).
 */
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { HttpMetrics } from "./http_metrics.ts";

/** A reader never collected: the SDK aggregates every recording, as it does between exports. */
class IdleReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const provider = new MeterProvider({ readers: [new IdleReader()] });
const sdk = HttpMetrics.of({ meterProvider: provider })!;
const none = HttpMetrics.of();
const route = { method: "GET", path: "/calendars/:calendarId" };
const response = new Response(null, { status: 200 });
const histogram = provider.getMeter("bench").createHistogram("bench.duration");
const attributes = Object.freeze({
  "http.route": "/calendars/:calendarId",
  "http.request.method": "GET",
  "http.response.status_code": 200,
});

Deno.bench({ name: "no SDK: the pipeline's checks", group: "measure", baseline: true }, () => {
  const start = none === undefined ? 0 : none.now();
  if (none !== undefined) none.ofRoute(route, "GET").measure(start, response);
});

Deno.bench({ name: "SDK: clock read twice, series found, recorded", group: "measure" }, () => {
  const start = sdk.now();
  sdk.ofRoute(route, "GET").measure(start, response);
});

Deno.bench({ name: "SDK: histogram.record alone, same attributes", group: "measure" }, () => {
  histogram.record(0.001, attributes);
});
