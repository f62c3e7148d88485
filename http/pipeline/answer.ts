/**
 * The responses of the pipeline: a route's result, a cached one, a problem, an error; each with
 * the headers every answer carries (`X-Content-Type-Options: nosniff`, and `Cache-Control:
 * no-store` for an identified caller unless the route decides its caching). Internal to the
 * pipeline.
 *
 * @module
 */
import { isRefusal } from "@kit/kernel";
import { InvalidTokenError } from "../auth/invalid_token_error.ts";
import type { CachePolicy } from "../declaration/controller.ts";
import { cacheHeaders } from "../cache/cached_answer.ts";
import { refusalStatus } from "../contract/refusal_status.ts";
import type { RouteResult } from "./compiled_route.ts";
import { type Problem, problem, problemResponse } from "./problem.ts";
import type { RouteRequest } from "./route_request.ts";

const noStore: Readonly<Record<string, string>> = Object.freeze({ "cache-control": "no-store" });

/**
 * The response of a route's result in the negotiated media type: JSON, text or bytes, with the
 * handler's headers over the pipeline's (`no-store` when `noStore`, unless the handler set
 * `Cache-Control`).
 */
export function respond(result: RouteResult, mediaType: string, noStore: boolean): Response {
  const { status, body } = result;
  if (body === undefined || status === 204 || status === 304) {
    return new Response(null, { status, headers: headersOf(undefined, noStore, result.headers) });
  }
  let type: string;
  let content: BodyInit;
  if (typeof body === "string") {
    type = isJson(mediaType) ? "text/plain; charset=utf-8" : mediaType;
    content = body;
  } else if (
    body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof ReadableStream
  ) {
    type = "application/octet-stream";
    content = body as BodyInit;
  } else {
    type = isJson(mediaType) ? mediaType : "application/json";
    content = JSON.stringify(body);
  }
  return new Response(content, { status, headers: headersOf(type, noStore, result.headers) });
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
 * The answer of a route with a cache policy, which decides its caching (no `no-store` added): a
 * 200 to GET or HEAD carries its caching headers, or is a 304 to a matching validator.
 */
export async function cachedResponse(
  at: RouteRequest,
  policy: CachePolicy,
  result: RouteResult,
): Promise<Response> {
  const { request, mediaType } = at;
  if (result.status !== 200 || (request.method !== "GET" && request.method !== "HEAD")) {
    return respond(result, mediaType, false);
  }
  const text = typeof result.body === "string" ? result.body : JSON.stringify(result.body ?? null);
  const ifNoneMatch = request.headers.get("if-none-match");
  const cache = await cacheHeaders(policy, text, at.params, ifNoneMatch);
  if (cache.notModified) {
    return new Response(null, {
      status: 304,
      headers: { "x-content-type-options": "nosniff", ...cache.headers },
    });
  }
  const type = typeof result.body === "string" && isJson(mediaType)
    ? "text/plain; charset=utf-8"
    : mediaType;
  const own = result.headers === undefined
    ? cache.headers
    : { ...cache.headers, ...result.headers };
  return new Response(text, { status: result.status, headers: headersOf(type, false, own) });
}

/** A problem's response; `no-store` for an identified caller. */
export function problemAnswer(value: Problem, identified: boolean): Response {
  return problemResponse(value, identified ? noStore : undefined);
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
      return problemResponse(refusal, {
        "retry-after": String(Math.max(1, Math.ceil(retryAfter))),
        ...(identified ? noStore : {}),
      });
    }
    if (status !== 401) return problemAnswer(refusal, identified);
    const challenge = error instanceof InvalidTokenError ? error.challenge : "Bearer";
    return problemResponse(refusal, {
      "www-authenticate": challenge,
      ...(identified ? noStore : {}),
    });
  }
  if (!isRefusal(error)) {
    pipeline.errorReporter.report(error, {
      origin: "http",
      details: { route: `${route.method} ${route.path}`, method: at.request.method, path },
    });
  }
  return problemAnswer(
    problem(500, "INTERNAL_ERROR", "An unexpected error occurred", path),
    identified,
  );
}
