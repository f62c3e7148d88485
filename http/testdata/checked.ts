import type { HttpApi } from "../mod.ts";
import { validatingFetch } from "../testing.ts";

/**
 * The application with every answer held to its own OpenAPI document (`validatingFetch`): a
 * pipeline test whose answer the document does not declare fails with the reason.
 */
export function checked(http: HttpApi): HttpApi {
  return {
    fetch: validatingFetch(http.fetch, () => http.openapi(), {
      // The contract's own routes (the document, the docs page) are not in the document.
      skip: (request) => /^\/(openapi\.(json|yaml)|docs)(\/|$)/.test(new URL(request.url).pathname),
    }),
    openapi: () => http.openapi(),
    routes: http.routes,
  };
}
