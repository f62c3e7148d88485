/**
 * A route compiled into its plan: the steps a request of it goes through, chosen once at start-up
 * from what the route declares, so that a request runs only the steps its route needs (a `Public`
 * route without parts runs its tenant and its handler, nothing else; one whose request cannot name
 * a tenant is open: only its handler). Internal to the pipeline.
 *
 * @module
 */
import { authenticate } from "./authenticate.ts";
import { checkGuard, requireCaller } from "./check_guards.ts";
import type { CompiledRoute } from "./compiled_route.ts";
import { enterTenant } from "./request_tenant.ts";
import type { RouteRequest } from "./route_request.ts";
import { runCachedHandler, runHandler } from "./run_handler.ts";
import {
  refuseInvalidParts,
  validateBody,
  validateHeaders,
  validateParams,
  validateQuery,
} from "./validate_parts.ts";

/**
 * One step of a plan: `undefined` to go on to the next step, a response to answer with (the plan
 * stops), or a promise of either. A step that throws (or rejects) has the error answered.
 */
export type Step = (at: RouteRequest) => Response | undefined | Promise<Response | undefined>;

/** The last step of a plan: the handler's answer. */
export type AnswerStep = (at: RouteRequest) => Response | Promise<Response>;

/** What the router holds for a route: the route, and the steps a request of it runs, in order. */
export interface RoutePlan {
  /** The route. */
  readonly route: CompiledRoute;
  /**
   * In the spec's order: the caller (1), the parts (2), the tenant and the execution context (3),
   * the guards (4); each only when the route needs it.
   */
  readonly steps: readonly Step[];
  /** The handler's answer (5-10: handle, mapper, bus, handler, serializer, status and body). */
  readonly answer: AnswerStep;
  /** The index of the step after the body's (`validateBody`), -1 without one. */
  readonly afterBody: number;
  /**
   * Whether the route is open: nothing runs before its handler but the execution context, which
   * no request can change (no authenticator, part, guard or cache policy, and no tenant a request
   * could name: the tenant is read from the path only, and the path has no parameter). Its
   * requests are answered by `answerOpen`, without the steps.
   */
  readonly open: boolean;
}

/** What the plans of a pipeline share. */
export interface PlanOptions {
  /** Whether a request names its tenant in its path only (no `tenantOf`, no `tenantHeader`). */
  readonly tenantInPathOnly: boolean;
}

/** The plan of a route: its steps, chosen from what it declares. */
export function planRoute(route: CompiledRoute, options: PlanOptions): RoutePlan {
  const steps: Step[] = [];
  if (route.authenticators.length > 0) steps.push(authenticate);
  const { parts } = route;
  // A path with parameters is checked even without a schema: an undecodable segment, or text no
  // store keeps, is refused all the same.
  const validating = steps.length;
  if (parts.params !== undefined || route.path.includes(":")) steps.push(validateParams);
  if (parts.query !== undefined) steps.push(validateQuery);
  if (parts.headers !== undefined) steps.push(validateHeaders);
  if (parts.body !== undefined) steps.push(validateBody);
  if (steps.length > validating) steps.push(refuseInvalidParts);
  steps.push(enterTenant);
  if (route.requiresCaller) steps.push(requireCaller);
  if (!route.public) route.guards.forEach((_, i) => steps.push(checkGuard(i)));
  const body = steps.indexOf(validateBody);
  return {
    route,
    steps,
    answer: route.cache === undefined ? runHandler : runCachedHandler,
    afterBody: body === -1 ? -1 : body + 1,
    open: options.tenantInPathOnly && route.cache === undefined && steps.length === 1 &&
      steps[0] === enterTenant,
  };
}
