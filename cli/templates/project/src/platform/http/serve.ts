import type { HttpApi } from "@kit/http";
import { platformFetch, type PlatformPage } from "./platform-fetch.ts";

/** A served application: its address, and how to stop serving. */
export interface Served {
  readonly url: string;
  shutdown(): Promise<void>;
}

/**
 * Serves the application's routes (its OpenAPI document and docs page among them, served by the
 * HTTP plugin), the platform's pages and `/health` with `Deno.serve` (`port` 0: any free
 * port), on this machine only unless `hostname` says otherwise (`0.0.0.0`: every interface);
 * `pages` are asked first (health endpoints with this process's readiness checks). Deno's HTTP
 * adapter: the Node entry point (`src/main.node.ts`) and the Worker (`src/worker.ts`) serve
 * `platformFetch` their own way. `Deno.serve` puts no deadline on reading a request's headers
 * (Deno 2.9.6): a client that never finishes them holds its connection for good. In production,
 * serve behind a reverse proxy that bounds it (nginx `client_header_timeout 10s;`, HAProxy
 * `timeout http-request 10s`), as kit's `docs/operations/http-deadlines.md` shows.
 */
export function serveApplication(
  application: { readonly http: HttpApi },
  options: { port?: number; hostname?: string; pages?: readonly PlatformPage[] } = {},
): Served {
  const server = Deno.serve(
    { hostname: options.hostname ?? "127.0.0.1", port: options.port ?? 8000, onListen: () => {} },
    platformFetch(application, options.pages),
  );
  return {
    url: `http://${
      server.addr.hostname === "0.0.0.0" ? "localhost" : server.addr.hostname
    }:${server.addr.port}`,
    shutdown: () => server.shutdown(),
  };
}
