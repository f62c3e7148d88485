import { type Attributes, createNoopMeter, type Histogram } from "@opentelemetry/api";
import { kitMeter } from "@kit/kernel/internal";
import type { MetricsOptions } from "@kit/kernel/types";

/** The `http.route` of a request no route answers (404): one value, whatever the path. */
export const unmatchedRoute = "unmatched";

/**
 * The bucket boundaries of `http.server.request.duration`, in seconds: those the OpenTelemetry
 * semantic conventions advise (an SDK view may set others).
 */
export const httpDurationBuckets: readonly number[] = Object.freeze([
  0.005,
  0.01,
  0.025,
  0.05,
  0.075,
  0.1,
  0.25,
  0.5,
  0.75,
  1,
  2.5,
  5,
  7.5,
  10,
]);

const knownMethods = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "CONNECT",
  "TRACE",
]);

/** Where the HTTP metrics go (default: the global meter provider's meter `kit`). */
export interface HttpMetricsOptions extends MetricsOptions {
  /** The time in milliseconds, monotonic (default `performance.now`). */
  readonly now?: () => number;
}

/**
 * The histogram `http.server.request.duration` (seconds) of kit's request pipeline, labelled by
 * the OpenTelemetry semantic conventions: `http.route` (the route's template, `unmatched` when no
 * route has the path), `http.request.method` (`_OTHER` for a method HTTP does not define) and
 * `http.response.status_code`. Every series' attributes are made once (per route, method and
 * status) and reused, so a request allocates nothing to be measured.
 */
export class HttpMetrics {
  readonly #duration: Histogram;
  /** The time in milliseconds. */
  readonly now: () => number;
  readonly #series = new Map<string, RouteSeries>();
  readonly #ofRoute = new Map<object, RouteSeries>();
  readonly #ofHead = new Map<object, RouteSeries>();

  /** Creates the histogram once. */
  constructor(options: HttpMetricsOptions = {}) {
    const meter = kitMeter(options);
    this.#duration = meter.createHistogram("http.server.request.duration", {
      description: "Duration of HTTP server requests",
      unit: "s",
      advice: { explicitBucketBoundaries: [...httpDurationBuckets] },
    });
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * The metrics of these options, or `undefined` when their meter is the no-op one (no SDK was
   * registered before the application was composed): then requests skip measuring altogether.
   */
  static of(options: HttpMetricsOptions = {}): HttpMetrics | undefined {
    const meter = kitMeter(options);
    return meter === createNoopMeter() ? undefined : new HttpMetrics({ ...options, meter });
  }

  /** The series of a route (`{ method, path }`, its template) answering a request of `method`. */
  ofRoute(route: { readonly method: string; readonly path: string }, method: string): RouteSeries {
    const byRoute = method === "HEAD" && route.method !== "HEAD" ? this.#ofHead : this.#ofRoute;
    let series = byRoute.get(route);
    if (series === undefined) {
      series = this.series(route.path, method);
      byRoute.set(route, series);
    }
    return series;
  }

  /** The series of a route template (or {@linkcode unmatchedRoute}) and a request method. */
  series(route: string, method: string): RouteSeries {
    const label = knownMethods.has(method) ? method : "_OTHER";
    const key = `${label} ${route}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = new RouteSeries(this.#duration, this.now, route, label);
      this.#series.set(key, series);
    }
    return series;
  }
}

/** The answers of one route to one method: their attributes by status, each made once. */
export class RouteSeries {
  readonly #duration: Histogram;
  readonly #now: () => number;
  readonly #route: string;
  readonly #method: string;
  readonly #byStatus = new Map<number, Attributes>();

  /** The series of `route` answering `method` (already bounded). */
  constructor(duration: Histogram, now: () => number, route: string, method: string) {
    this.#duration = duration;
    this.#now = now;
    this.#route = route;
    this.#method = method;
  }

  /** Records the answer of a request started at `start` (ms); answers the response. */
  answered(start: number, response: Response): Response {
    const status = response.status;
    let attributes = this.#byStatus.get(status);
    if (attributes === undefined) {
      attributes = Object.freeze({
        "http.route": this.#route,
        "http.request.method": this.#method,
        "http.response.status_code": status,
      });
      this.#byStatus.set(status, attributes);
    }
    this.#duration.record((this.#now() - start) / 1000, attributes);
    return response;
  }

  /** Records the answer, now or once the promise of it settles with a response. */
  measure(start: number, answer: Response | Promise<Response>): Response | Promise<Response> {
    if (!(answer instanceof Promise)) return this.answered(start, answer);
    return answer.then((response) => this.answered(start, response));
  }
}
