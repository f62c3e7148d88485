import type { HttpApi } from "@kit/http";
// kit:begin page-imports
// kit:end

/**
 * A handler the platform asks before the API's routes: it answers its own requests, and
 * `undefined` for any other (a page of the project's, health endpoints with readiness checks).
 */
export type PlatformPage = (request: Request) => Response | Promise<Response> | undefined;

/** The pages every entry point serves beside the API, sorted. */
const pages: readonly PlatformPage[] = [
  // kit:begin pages
  // kit:end
];

/** The headers of the platform's own answers: never sniffed as another type. */
const headers = { "x-content-type-options": "nosniff" };

/**
 * The handler every entry point serves: the pages given, then those of `pages`, then
 * `GET /health`, then the application's routes (its OpenAPI document and docs page among them,
 * served by the HTTP plugin).
 */
export function platformFetch(
  application: { readonly http: HttpApi },
  given: readonly PlatformPage[] = [],
): (request: Request) => Promise<Response> {
  return async function handle(request) {
    for (const page of [...given, ...pages]) {
      const answer = page(request);
      if (answer !== undefined) return await answer;
    }
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/health") {
      return Response.json({ status: "ok" }, { headers });
    }
    return await application.http.fetch(request);
  };
}
