/**
 * The responses of the pipeline, three builders: a route's result (`respond`), a problem
 * (`problemResponse`), an error thrown by a step (`errorResponse`); each with the headers every
 * answer carries (`X-Content-Type-Options: nosniff`, and `Cache-Control: no-store` for an
 * identified caller unless the route decides its caching). Internal to the pipeline.
 *
 * @module
 */
import { isRefusal } from "@kit/kernel";
import { InvalidTokenError } from "../auth/invalid_token_error.ts";
import { refusalStatus } from "../contract/refusal_status.ts";
import type { RouteResult } from "./compiled_route.ts";
import { type Problem, problem } from "./problem.ts";
import type { RouteRequest } from "./route_request.ts";

/**
 * The response of a route's result in the negotiated media type: JSON, text or bytes, with the
 * handler's headers over the pipeline's (`no-store` when `noStore`, unless the handler set
 * `Cache-Control`). `text` is the body already serialized (a cached answer's, whose ETag was
 * computed over it): sent as it is, in the negotiated media type (text in a JSON one as
 * `text/plain`).
 */
export function respond(
  result: RouteResult,
  mediaType: string,
  noStore: boolean,
  text?: string,
): Response {
  const { status, body } = result;
  if ((body === undefined && text === undefined) || status === 204 || status === 304) {
    return new Response(null, { status, headers: headersOf(undefined, noStore, result.headers) });
  }
  let type: string;
  let content: BodyInit;
  if (typeof body === "string") {
    type = isJson(mediaType) ? "text/plain; charset=utf-8" : mediaType;
    content = text ?? body;
  } else if (text !== undefined) {
    type = mediaType;
    content = text;
  } else if (
    body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof ReadableStream
  ) {
    type = "application/octet-stream";
    content = body as BodyInit;
  } else {
    type = isJson(mediaType) ? mediaType : "application/json";
    content = JSON.stringify(body);
  }
  if (status === 200 && headersAfter) return okResponse(content, type, noStore, result.headers);
  return new Response(content, { status, headers: headersOf(type, noStore, result.headers) });
}

/**
 * Whether a 200 answer is made without headers and given them afterwards (`okResponse`): on Deno
 * only. Deno copies a response made with headers other than a lone `Content-Type` (every answer
 * carries `X-Content-Type-Options`) into a native one as it is made, which costs more than the
 * headers set afterwards: a fifth of the time in process, about 0.5 µs of CPU per request served
 * (issue #33). Elsewhere the answer is made with its headers: @hono/node-server answers such a
 * response from the headers it was made with, and builds a `Headers` for one whose headers are
 * read (kit on Node: 22 against 28 µs of CPU per request).
 */
const headersAfter = typeof (globalThis as { Deno?: unknown }).Deno === "object";

/** A 200 answer, its headers set on the response made without them: the same answer. */
function okResponse(
  content: BodyInit,
  type: string,
  noStore: boolean,
  own: Readonly<Record<string, string>> | undefined,
): Response {
  const response = new Response(content);
  const headers = response.headers;
  headers.set("content-type", type);
  headers.set("x-content-type-options", "nosniff");
  if (noStore) headers.set("cache-control", "no-store");
  if (own !== undefined) {
    for (const name of Object.keys(own)) headers.set(name, own[name]!);
  }
  return response;
}

/** The pipeline's headers, then the handler's own (names lower-cased, so that theirs win). */
function headersOf(
  type: string | undefined,
  noStore: boolean,
  own: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = { "x-content-type-options": "nosniff" };
  if (type !== undefined) out["content-type"] = type;
  if (noStore) out["cache-control"] = "no-store";
  if (own !== undefined) {
    for (const name of Object.keys(own)) out[name.toLowerCase()] = own[name]!;
  }
  return out;
}

function isJson(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

/**
 * The response of a problem (`application/problem+json`, with `X-Content-Type-Options: nosniff`
 * as every answer of the pipeline; `Cache-Control: no-store` for an identified caller), with the
 * given headers besides.
 */
export function problemResponse(
  value: Problem,
  identified: boolean,
  headers?: Readonly<Record<string, string>>,
): Response {
  const out: Record<string, string> = {
    "content-type": "application/problem+json",
    "x-content-type-options": "nosniff",
  };
  if (headers !== undefined) Object.assign(out, headers);
  if (identified) out["cache-control"] = "no-store";
  return new Response(JSON.stringify(value), { status: value.status, headers: out });
}

/**
 * The problem of an error thrown by a step: a refusal answers its code with the status the route
 * declares for it (a code it does not declare is reported, see `refusalStatus`); a 401 carries a
 * `WWW-Authenticate: Bearer` challenge (`invalid_token` with the reason for a refused token); a 503
 * or 429 carries `Retry-After` when the error says when (`details.retryAfterSeconds`, as
 * `SERVICE_UNAVAILABLE` does); anything else is reported and answers 500 without its message.
 */
export function errorResponse(error: unknown, at: RouteRequest): Response {
  const { pipeline, route, path } = at;
  const identified = at.identified;
  const status = isRefusal(error) ? refusalStatus(pipeline, route, error) : undefined;
  if (isRefusal(error) && status !== undefined) {
    const hint = error.code === "TENANT_REQUIRED" ? pipeline.tenantHint : undefined;
    const refusal = problem(
      status,
      error.code,
      hint === undefined ? error.message : `${error.message}: ${hint}`,
      path,
    );
    const retryAfter = error.details.retryAfterSeconds;
    if ((status === 503 || status === 429) && typeof retryAfter === "number") {
      return problemResponse(refusal, identified, {
        "retry-after": String(Math.max(1, Math.ceil(retryAfter))),
      });
    }
    if (status !== 401) return problemResponse(refusal, identified);
    const challenge = error instanceof InvalidTokenError ? error.challenge : "Bearer";
    return problemResponse(refusal, identified, { "www-authenticate": challenge });
  }
  if (!isRefusal(error)) {
    pipeline.errorReporter.report(error, {
      origin: "http",
      details: { route: `${route.method} ${route.path}`, method: at.request.method, path },
    });
  }
  return problemResponse(
    problem(500, "INTERNAL_ERROR", "An unexpected error occurred", path),
    identified,
  );
}
