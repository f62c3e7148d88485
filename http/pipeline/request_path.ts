/**
 * The path of a request's URL: what the router matches and problems name as their `instance`.
 * Internal to the pipeline.
 *
 * @module
 */

/** The path of a URL (`/calendars/c1`), without its query and fragment; `/` when it has none. */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = query === -1 ? hash : hash === -1 ? query : Math.min(query, hash);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}

/** The query string of a URL, without `?` and fragment (`""` without one). */
export function queryOf(url: string): string {
  // A `?` cannot stand before the path: the URL serializer escapes it in the authority.
  const start = url.indexOf("?");
  if (start === -1) return "";
  const hash = url.indexOf("#");
  if (hash === -1) return url.slice(start + 1);
  return hash < start ? "" : url.slice(start + 1, hash);
}
