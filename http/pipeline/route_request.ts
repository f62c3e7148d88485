import type { GuardRequest } from "../declaration/guard.ts";
import type { Caller } from "./authenticator.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import type { Pipeline } from "./handle_request.ts";
import type { ProblemIssue } from "./problem.ts";
import { queryOf } from "./request_path.ts";
import type { RequestExecution } from "./request_execution.ts";
import type { RouteMatch } from "./router.ts";
import type { RoutePlan } from "./route_plan.ts";

/**
 * A request on its way through its route's plan: the pipeline, the route (compiled once,
 * referenced, never copied), what was read of the request's line (its path, parameters, the media
 * type negotiated), and what the steps found so far (the caller, the validated parts and their
 * issues, the execution context). The one object every step takes; made once per request, and a
 * class so that its shape is one (its fields are assigned in the constructor, in one order, never
 * defined as class fields). Internal to the pipeline.
 */
export class RouteRequest {
  /** The caller the authenticators identified, once they ran. */
  declare caller: Caller | undefined;
  /** The validated parts by name (`params`, `query`, `headers`, `body`), once validated. */
  declare validated: Record<string, unknown> | undefined;
  /** The issues of the parts validated so far; absent while there is none. */
  declare issues: ProblemIssue[] | undefined;
  /** The execution context of the request's work, once its tenant is known. */
  declare execution: RequestExecution | undefined;
  /** What the guards see, made for the first guard. */
  declare guardRequest: GuardRequest | undefined;

  /** The plan it runs. */
  declare readonly plan: RoutePlan;
  /** The route it answers. */
  declare readonly route: CompiledRoute;
  /** Its path parameters by name. */
  declare readonly params: Record<string, string>;
  /** The parameters whose segment is not valid percent-encoded UTF-8, if any. */
  declare readonly undecodable: readonly string[] | undefined;

  /** A matched request. */
  constructor(
    readonly pipeline: Pipeline,
    readonly request: Request,
    readonly path: string,
    matched: RouteMatch<RoutePlan>,
    readonly mediaType: string,
  ) {
    this.plan = matched.value;
    this.route = matched.value.route;
    this.params = matched.params;
    this.undecodable = matched.undecodable;
    this.caller = undefined;
    this.validated = undefined;
    this.issues = undefined;
    this.execution = undefined;
    this.guardRequest = undefined;
  }

  /** Whether an identified caller made it (its answers then carry `Cache-Control: no-store`). */
  get identified(): boolean {
    return this.caller !== undefined;
  }

  /** The query string, without `?` and fragment (`""` without one). */
  get query(): string {
    return queryOf(this.request.url);
  }
}
