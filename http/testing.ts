/**
 * Test helpers of `@kit/http`: a validator that holds every answer an application gives in a
 * test to its own OpenAPI document (status declared, media type, body schema, the problem's code
 * listed for that status).
 *
 * @example Every answer of a spec checked
 * ```ts ignore
 * import { validatingFetch } from "@kit/http/testing";
 * const fetch = validatingFetch(application.http.fetch, () => application.http.openapi());
 * const response = await fetch(new Request("http://api.test/people/me"));
 * ```
 *
 * @module
 */
export * from "./testing/response_validator.ts";
