import type { composePlatform } from "../compose-application.ts";
import { apiDocs } from "./api-docs.ts";

/** A served application: its address, and how to stop serving. */
export interface Served {
  readonly url: string;
  shutdown(): Promise<void>;
}

/**
 * Serves the application on loopback: the API, `/health`, the OpenAPI document at
 * `/openapi.json` and the API docs page at `/docs`.
 */
export async function serveApplication(
  application: ReturnType<typeof composePlatform>,
  options: { port?: number } = {},
): Promise<Served> {
  const docs = await apiDocs(application.http.openapi());
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    (request) => {
      const answer = docs(request);
      if (answer) return answer;
      if (new URL(request.url).pathname === "/health") return Response.json({ status: "ok" });
      return application.http.fetch(request);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    shutdown: () => server.shutdown(),
  };
}
