import type { composePlatform } from "../compose-application.ts";
import { bookingPage } from "./booking-page.ts";
import { healthEndpoints, type HealthOptions } from "./health.ts";

/** A served application: its address, and how to stop serving. */
export interface Served {
  readonly url: string;
  shutdown(): Promise<void>;
}

/**
 * Serves the application on loopback: the API, the health endpoints (`/health/live`, `/health`
 * and `/health/ready`, see `healthEndpoints`), and what its HTTP plugin serves of its contract:
 * the OpenAPI document at `/openapi.json` and the API docs page at `/docs`, the jobs dashboard at
 * `/ops/jobs`; and the booking page at `/book` (see `bookingPage`). Shutting down ends the
 * dashboard's event streams first (a graceful shutdown waits for every open answer).
 */
export function serveApplication(
  application: ReturnType<typeof composePlatform>,
  options: { port?: number; health?: HealthOptions } = {},
): Promise<Served> {
  const health = healthEndpoints(options.health ?? { readiness: {} });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    (request) => health(request) ?? bookingPage(request) ?? application.http.fetch(request),
  );
  return Promise.resolve({
    url: `http://127.0.0.1:${server.addr.port}`,
    shutdown: () => {
      application.jobsDashboard.close();
      return server.shutdown();
    },
  });
}
