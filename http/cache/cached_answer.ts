import type { CachePolicy } from "../declaration/controller.ts";

/** The caching headers of a response under a policy, and whether the request's validator matches. */
export async function cacheHeaders(
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
