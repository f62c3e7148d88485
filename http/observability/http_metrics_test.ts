import assert from "node:assert/strict";
import { metrics } from "@opentelemetry/api";
import { z } from "zod";
import {
  type DataPointType,
  type HistogramMetricData,
  MeterProvider,
  type MetricReader,
} from "@opentelemetry/sdk-metrics";
import { composeApplication, defineModule } from "@kit/kernel";
import { defineRoute, httpPlugin, zodSchema } from "../mod.ts";
import { HttpMetrics } from "./http_metrics.ts";
import { TestReader } from "../../test_support/metric_reader.ts";

const calendar = defineRoute({
  method: "GET",
  path: "/calendars/:calendarId",
  operationId: "getCalendar",
  request: { params: zodSchema(z.object({ calendarId: z.string().max(5) })) },
  responses: { 200: { description: "The calendar" } },
  security: [],
}, ({ params }) => ({ status: 200, body: { id: params.calendarId } }));

const slow = defineRoute({
  method: "POST",
  path: "/slow",
  operationId: "slow",
  responses: { 202: { description: "Accepted" } },
  security: [],
}, async () => {
  await Promise.resolve();
  return { status: 202 };
});

/** An application over these routes measured by a fresh SDK; answers its fetch and the reader. */
function measuredApp(cors?: { origins: string[] }) {
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const app = composeApplication({
    modules: [defineModule("calendars", {})],
    plugins: {
      http: httpPlugin({
        routes: [calendar, slow],
        meterProvider,
        openapi: {},
        ...(cors ? { cors: { origins: cors.origins } } : {}),
      }),
    },
  });
  return { fetch: app.http.fetch, reader };
}

/** The data points of `http.server.request.duration`: attributes and count, sorted. */
async function durations(reader: MetricReader) {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .filter((scope) => scope.scope.name === "kit")
    .flatMap((scope) => scope.metrics)
    .find((m) => m.descriptor.name === "http.server.request.duration") as
      | HistogramMetricData
      | undefined;
  assert.ok(metric, "http.server.request.duration is published");
  assert.equal(metric.descriptor.unit, "s");
  assert.equal(metric.dataPointType, 0 as DataPointType.HISTOGRAM);
  return metric.dataPoints
    .map((p) => ({ ...p.attributes, count: p.value.count }))
    .sort(byJson);
}

function byJson(a: unknown, b: unknown): number {
  return JSON.stringify(a).localeCompare(JSON.stringify(b));
}

const request = (path: string, init?: RequestInit) => new Request(`http://api.test${path}`, init);

async function answer(fetch: (r: Request) => Response | Promise<Response>, r: Request) {
  const response = await fetch(r);
  await response.body?.cancel();
  return response.status;
}

Deno.test("http.server.request.duration counts every answer by route template, method and status", async () => {
  const { fetch, reader } = measuredApp();
  assert.equal(await answer(fetch, request("/calendars/c1")), 200);
  assert.equal(await answer(fetch, request("/calendars/c2")), 200);
  assert.equal(await answer(fetch, request("/calendars/too-long-id")), 422);
  assert.equal(await answer(fetch, request("/calendars/c1", { method: "HEAD" })), 200);
  assert.equal(await answer(fetch, request("/slow", { method: "POST" })), 202);
  assert.equal(await answer(fetch, request("/openapi.json")), 200);

  assert.deepEqual(
    await durations(reader),
    [
      {
        "http.route": "/calendars/:calendarId",
        "http.request.method": "GET",
        "http.response.status_code": 200,
        count: 2,
      },
      {
        "http.route": "/calendars/:calendarId",
        "http.request.method": "GET",
        "http.response.status_code": 422,
        count: 1,
      },
      {
        "http.route": "/calendars/:calendarId",
        "http.request.method": "HEAD",
        "http.response.status_code": 200,
        count: 1,
      },
      {
        "http.route": "/openapi.json",
        "http.request.method": "GET",
        "http.response.status_code": 200,
        count: 1,
      },
      {
        "http.route": "/slow",
        "http.request.method": "POST",
        "http.response.status_code": 202,
        count: 1,
      },
    ].sort(byJson),
  );
});

Deno.test("http.server.request.duration labels 404 and 405 with bounded routes and unknown methods as _OTHER", async () => {
  const { fetch, reader } = measuredApp();
  for (let i = 0; i < 20; i++) {
    assert.equal(await answer(fetch, request(`/nothing/here/${crypto.randomUUID()}`)), 404);
  }
  assert.equal(await answer(fetch, request("/calendars/c1", { method: "DELETE" })), 405);
  assert.equal(await answer(fetch, request("/calendars/c2", { method: "DELETE" })), 405);
  assert.equal(await answer(fetch, request("/calendars/c1", { method: "BREW" })), 405);
  assert.equal(await answer(fetch, request("/x", { method: "PROPFIND" })), 404);

  assert.deepEqual(
    await durations(reader),
    [
      {
        "http.route": "/calendars/:calendarId",
        "http.request.method": "DELETE",
        "http.response.status_code": 405,
        count: 2,
      },
      {
        "http.route": "/calendars/:calendarId",
        "http.request.method": "_OTHER",
        "http.response.status_code": 405,
        count: 1,
      },
      {
        "http.route": "unmatched",
        "http.request.method": "GET",
        "http.response.status_code": 404,
        count: 20,
      },
      {
        "http.route": "unmatched",
        "http.request.method": "_OTHER",
        "http.response.status_code": 404,
        count: 1,
      },
    ].sort(byJson),
  );
});

Deno.test("http.server.request.duration counts a CORS preflight under its route's template", async () => {
  const { fetch, reader } = measuredApp({ origins: ["https://app.test"] });
  const preflight = request("/calendars/c9", {
    method: "OPTIONS",
    headers: { origin: "https://app.test", "access-control-request-method": "GET" },
  });
  assert.equal(await answer(fetch, preflight), 204);
  assert.deepEqual(await durations(reader), [{
    "http.route": "/calendars/:calendarId",
    "http.request.method": "OPTIONS",
    "http.response.status_code": 204,
    count: 1,
  }]);
});

Deno.test("HttpMetrics records the time from the start of a request to its answer, in seconds", async () => {
  const reader = new TestReader();
  let now = 1_000;
  const metrics = new HttpMetrics({
    meterProvider: new MeterProvider({ readers: [reader] }),
    now: () => now,
  });
  const series = metrics.ofRoute({ method: "GET", path: "/a" }, "GET");
  assert.equal(metrics.ofRoute({ method: "GET", path: "/a" }, "GET"), series);
  const answered = series.measure(now, Promise.resolve(new Response(null, { status: 204 })));
  now += 250;
  assert.equal((await answered).status, 204);
  const { resourceMetrics } = await reader.collect();
  const point = resourceMetrics.scopeMetrics[0]!.metrics[0]!.dataPoints[0]!;
  assert.deepEqual(point.value, {
    count: 1,
    sum: 0.25,
    min: 0.25,
    max: 0.25,
    buckets: (point.value as { buckets: unknown }).buckets,
  });
});

Deno.test("HttpMetrics.of() measures nothing when no SDK is registered (the no-op meter)", () => {
  assert.equal(HttpMetrics.of(), undefined);
  assert.ok(HttpMetrics.of({ meterProvider: new MeterProvider() }) instanceof HttpMetrics);
});

Deno.test("httpPlugin measures through the global meter provider registered before composition", async () => {
  const reader = new TestReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  try {
    const app = composeApplication({
      modules: [defineModule("calendars", {})],
      plugins: { http: httpPlugin({ routes: [calendar] }) },
    });
    assert.equal(await answer(app.http.fetch, request("/calendars/c1")), 200);
    assert.deepEqual(await durations(reader), [{
      "http.route": "/calendars/:calendarId",
      "http.request.method": "GET",
      "http.response.status_code": 200,
      count: 1,
    }]);
  } finally {
    metrics.disable();
  }
});
