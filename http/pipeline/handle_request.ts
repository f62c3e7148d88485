import type { Actor, ErrorReporter } from "@kit/kernel";
import { type HttpMetrics, unmatchedRoute } from "../observability/http_metrics.ts";
import type { Cors } from "../cors/cors.ts";
import { problemResponse } from "./answer.ts";
import { answerOpen } from "./answer_open.ts";
import { problem } from "./problem.ts";
import { negotiate } from "./negotiate.ts";
import { pathOf } from "./request_path.ts";
import { RouteRequest } from "./route_request.ts";
import type { RoutePlan } from "./route_plan.ts";
import type { Router } from "./router.ts";
import { runPlan } from "./run_plan.ts";

/** A guard refusal, as given to `onGuardRefusal`. */
export interface GuardRefusal {
  /** The refused request. */
  readonly request: Request;
  /** The route, `METHOD /path`. */
  readonly route: string;
  /** The guard that refused (or `TenantMember` for a tenant the caller does not belong to). */
  readonly guard: string;
  /** The identified caller, if any. */
  readonly actor: Actor | undefined;
  /** The refusal. */
  readonly error: Error;
}

/** What the pipeline needs, compiled once (see `HttpPluginOptions` for each). */
export interface Pipeline {
  /** Each route's plan, by method and path. */
  readonly router: Router<RoutePlan>;
  readonly errorReporter: ErrorReporter;
  /** The status of each code: the kernel's (`kernelStatusByCode`), the project's over them. */
  readonly statusByCode: Readonly<Record<string, number>>;
  /** What a refusal of a code its route does not declare does (`refuse`: 500; `report`). */
  readonly undeclaredErrors: "refuse" | "report";
  readonly bodyLimit: number;
  /** How long a body may take to arrive, in milliseconds (`Infinity`: no limit). */
  readonly bodyTimeoutMs: number;
  /** Whether text with a NUL character or a lone surrogate is refused (422). */
  readonly refuseUnstorableText: boolean;
  readonly tenantOf: (
    params: Readonly<Record<string, string>>,
    request: Request,
  ) => string | undefined;
  /**
   * How a request names its tenant, said in a `TENANT_REQUIRED` answer ("send the 'x-tenant-id'
   * header ..."); absent when a project's own `tenantOf` reads it.
   */
  readonly tenantHint?: string;
  readonly onGuardRefusal?: (refusal: GuardRefusal) => void | Promise<void>;
  /** The CORS policy; without one, no answer carries a CORS header. */
  readonly cors?: Cors;
  /** The request duration histogram; absent (no SDK), nothing is measured. */
  readonly metrics?: HttpMetrics;
}

/**
 * Answers one request: its route's plan (see `planRoute`), run by `runPlan` (an open route's by
 * `answerOpen`); every refusal a problem document. Every answer carries
 * `X-Content-Type-Options: nosniff`; an answer to an identified caller `Cache-Control: no-store`
 * unless its route declares a cache policy or its handler set `Cache-Control`; with a CORS policy,
 * the CORS headers of the request's origin.
 * `path` is the request's (`pathOf` its URL), when the caller has read it already.
 */
export function handleRequest(
  pipeline: Pipeline,
  request: Request,
  path: string = pathOf(request.url),
): Response | Promise<Response> {
  const start = pipeline.metrics === undefined ? 0 : pipeline.metrics.now();
  const cors = pipeline.cors;
  if (cors === undefined) return dispatch(pipeline, request, path, start);
  const origin = request.headers.get("origin");
  if (cors.isPreflight(request)) {
    const at = pipeline.router.match("", path);
    const allowed = at === undefined || !("allowed" in at) ? undefined : at;
    const preflight = cors.preflight(origin, allowed?.allowed);
    if (preflight !== undefined) {
      if (pipeline.metrics === undefined) return preflight;
      const route = allowed?.template ?? unmatchedRoute;
      return pipeline.metrics.series(route, request.method).answered(start, preflight);
    }
  }
  const answered = dispatch(pipeline, request, path, start);
  return answered instanceof Promise
    ? answered.then((response) => cors.decorate(response, origin))
    : cors.decorate(answered, origin);
}

/**
 * The route's plan and the media type of its answer (else 404, 405, 406), then the plan run; the
 * answer is measured from `start` when the pipeline has metrics.
 */
function dispatch(
  pipeline: Pipeline,
  request: Request,
  path: string,
  start: number,
): Response | Promise<Response> {
  const matched = pipeline.router.match(request.method, path);
  const metrics = pipeline.metrics;
  if (matched === undefined) {
    const response = problemResponse(
      problem(404, "NOT_FOUND", `No route answers ${request.method} ${path}`, path),
      false,
    );
    if (metrics === undefined) return response;
    return metrics.series(unmatchedRoute, request.method).answered(start, response);
  }
  if ("allowed" in matched) {
    const response = problemResponse(
      problem(405, "METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}`, path),
      false,
      { allow: matched.allowed.join(", ") },
    );
    if (metrics === undefined) return response;
    return metrics.series(matched.template, request.method).answered(start, response);
  }
  const plan = matched.value;
  const route = plan.route;
  const mediaType = route.negotiates
    ? negotiate(request.headers.get("accept"), route.produces)
    : route.produces[0]!;
  const answered = mediaType === undefined
    ? problemResponse(
      problem(406, "NOT_ACCEPTABLE", `This route answers ${route.produces.join(", ")} only`, path),
      false,
    )
    : plan.open
    ? answerOpen(pipeline, request, path, matched, mediaType)
    : runPlan(plan, new RouteRequest(pipeline, request, path, matched, mediaType));
  if (metrics === undefined) return answered;
  return metrics.ofRoute(route, request.method).measure(start, answered);
}
