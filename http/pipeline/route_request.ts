import type { Caller } from "./authenticator.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import type { Pipeline } from "./handle_request.ts";
import type { RouteMatch } from "./router.ts";

/**
 * A request on its way through the pipeline once its route is matched: the pipeline, the route
 * (compiled once, referenced, never copied), what was read of the request's line (its path,
 * parameters, the media type negotiated) and, once the authenticators ran, its caller. The one
 * object the pipeline's steps take; made once per request, and a class so that its shape is one
 * (its fields are assigned in the constructor, in one order, never defined as class fields).
 * Internal to the pipeline.
 */
export class RouteRequest {
  /** The caller the authenticators identified, once they ran. */
  declare caller: Caller | undefined;

  /** The route it answers. */
  declare readonly route: CompiledRoute;
  /** Its path parameters by name. */
  declare readonly params: Record<string, string>;
  /** The parameters whose segment is not valid percent-encoded UTF-8, if any. */
  declare readonly undecodable: readonly string[] | undefined;

  /** A matched request; `queryStart` is the index of `?` in its URL, `-1` without one. */
  constructor(
    readonly pipeline: Pipeline,
    readonly request: Request,
    readonly path: string,
    readonly queryStart: number,
    matched: RouteMatch<CompiledRoute>,
    readonly mediaType: string,
  ) {
    this.route = matched.value;
    this.params = matched.params;
    this.undecodable = matched.undecodable;
    this.caller = undefined;
  }

  /** Whether an identified caller made it (its answers then carry `Cache-Control: no-store`). */
  get identified(): boolean {
    return this.caller !== undefined;
  }

  /** The query string, without `?` and fragment (`""` without one). */
  get query(): string {
    const { url } = this.request;
    const start = this.queryStart;
    return start === -1 ? "" : url.slice(start + 1, url.indexOf("#", start) >>> 0);
  }
}
