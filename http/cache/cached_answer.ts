/**
 * The answer of a route with a cache policy (`cache` of a controller): its caching headers
 * (`Cache-Control`, `Cache-Tag`, an `ETag` over the body), and a 304 to a matching
 * `If-None-Match`.
 *
 * @module
 */
import type { CachePolicy } from "../declaration/controller.ts";
import { respond } from "../pipeline/answer.ts";
import type { RouteResult } from "../pipeline/compiled_route.ts";
import type { RouteRequest } from "../pipeline/route_request.ts";

/**
 * The answer of a route with a cache policy, which decides its caching (no `no-store` added): a
 * 200 to GET or HEAD carries its caching headers, or is a 304 to a matching validator.
 */
export async function cachedAnswer(
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
  if (cache.notModified) return respond({ status: 304, headers: cache.headers }, mediaType, false);
  const headers = result.headers === undefined
    ? cache.headers
    : { ...cache.headers, ...result.headers };
  return respond({ status: result.status, body: result.body, headers }, mediaType, false, text);
}

/** The caching headers of a response under a policy, and whether the request's validator matches. */
async function cacheHeaders(
  policy: CachePolicy,
  body: string,
  params: Readonly<Record<string, string>>,
  ifNoneMatch: string | null,
): Promise<{ headers: Record<string, string>; notModified: boolean }> {
  const headers: Record<string, string> = {};
  if (policy.maxAge !== undefined || policy.scope !== undefined) {
    const parts: string[] = [policy.scope ?? "private"];
    if (policy.maxAge !== undefined) parts.push(`max-age=${policy.maxAge}`);
    headers["cache-control"] = parts.join(", ");
  }
  const tags = typeof policy.tags === "function" ? policy.tags(params) : policy.tags;
  if (tags !== undefined && tags.length > 0) headers["cache-tag"] = tags.join(",");
  let notModified = false;
  if (policy.etag) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
    const etag = `"${toBase64Url(new Uint8Array(digest).slice(0, 12))}"`;
    headers.etag = etag;
    if (ifNoneMatch !== null) {
      notModified = ifNoneMatch.trim() === "*" ||
        ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
    }
  }
  return { headers, notModified };
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replaceAll(
    "=",
    "",
  );
}
