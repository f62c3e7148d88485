import { checkReadiness, type Duration, type HealthCheck } from "@kit/kernel";

/** What the health endpoints check. */
export interface HealthOptions {
  /** The dependencies the process needs to serve, by name (the database; the job store). */
  readonly readiness: Readonly<Record<string, HealthCheck>>;
  /** How long each check may take before it counts as down (default `"2s"`). */
  readonly timeout?: Duration;
  /** Called with each check that failed (a log line); the answer names no error. */
  readonly onFailure?: (name: string, error: unknown) => void;
}

const headers = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

/**
 * The health endpoints, open to anyone and outside the API's pipeline:
 *
 * - `GET /health/live` (and `/health`, as before): 200 while the process answers at all. A
 *   liveness probe that fails means "restart me"; it never looks at the database, so that an
 *   outage of the database does not restart every process.
 * - `GET /health/ready`: 200 `{ status: "ready", checks }` when every dependency answers within
 *   the time-out, else 503 `{ status: "unavailable", checks }` with `Retry-After`. A readiness
 *   probe that fails means "send me no traffic for now".
 *
 * Answers undefined for any other request.
 */
export function healthEndpoints(
  options: HealthOptions,
): (request: Request) => Promise<Response> | undefined {
  return function health(request) {
    const { pathname } = new URL(request.url);
    if (pathname !== "/health" && pathname !== "/health/live" && pathname !== "/health/ready") {
      return undefined;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return Promise.resolve(
        new Response(null, { status: 405, headers: { ...headers, allow: "GET, HEAD" } }),
      );
    }
    if (pathname !== "/health/ready") {
      return Promise.resolve(Response.json({ status: "ok" }, { headers }));
    }
    return checkReadiness(options.readiness, {
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      ...(options.onFailure === undefined ? {} : { onFailure: options.onFailure }),
    }).then((report) =>
      Response.json(report, {
        status: report.status === "ready" ? 200 : 503,
        headers: report.status === "ready" ? headers : { ...headers, "retry-after": "5" },
      })
    );
  };
}
