/**
 * The answer of an open route: one whose plan has nothing to run before its handler (no
 * authenticator, no part to validate, no guard, no tenant a request could name, no cache policy).
 * Its request is answered without the `RouteRequest` every other plan builds: the handler is given
 * the anonymous actor and an execution context without tenant, as `enterTenant` would have made
 * them, and its result answered as `runHandler` would. An error builds the `RouteRequest` then, so
 * that it is answered as on every other route. Internal to the pipeline.
 *
 * @module
 */
import { runInScope } from "@kit/kernel";
import { errorResponse, respond } from "./answer.ts";
import type { RouteResult } from "./compiled_route.ts";
import type { Pipeline } from "./handle_request.ts";
import { anonymous, RequestExecution } from "./request_execution.ts";
import { RouteRequest } from "./route_request.ts";
import type { RoutePlan } from "./route_plan.ts";
import type { RouteMatch } from "./router.ts";

/** A request of an open route, and what answering it needs should it fail. */
interface OpenRequest {
  readonly pipeline: Pipeline;
  readonly request: Request;
  readonly path: string;
  readonly matched: RouteMatch<RoutePlan>;
  readonly mediaType: string;
}

/**
 * Answers a request of an open route (`RoutePlan.open`): the handler run (in the request's work
 * scope when the route needs it), its result answered in `mediaType`; synchronous while the
 * handler is.
 */
export function answerOpen(
  pipeline: Pipeline,
  request: Request,
  path: string,
  matched: RouteMatch<RoutePlan>,
  mediaType: string,
): Response | Promise<Response> {
  const route = matched.value.route;
  const execution = new RequestExecution(request, anonymous, undefined, undefined);
  const input: Record<string, unknown> = { actor: anonymous, context: execution };
  try {
    if (route.handle !== undefined) {
      const body = route.needsScope
        ? runInScope({ execution }, route.handle, input)
        : route.handle(input);
      if (body instanceof Promise) {
        return body.then(
          (value) => answerShaped(value, input, { pipeline, request, path, matched, mediaType }),
          (error) => failed(error, { pipeline, request, path, matched, mediaType }),
        );
      }
      return respond(route.shape!(body, input), mediaType, false);
    }
    const ran = route.needsScope
      ? runInScope({ execution }, () => route.run(input, request))
      : route.run(input, request);
    if (ran instanceof Promise) {
      return ran.then(
        (result) => answerResult(result, { pipeline, request, path, matched, mediaType }),
        (error) => failed(error, { pipeline, request, path, matched, mediaType }),
      );
    }
    return respond(ran, mediaType, false);
  } catch (error) {
    return failed(error, { pipeline, request, path, matched, mediaType });
  }
}

function answerShaped(body: unknown, input: Record<string, unknown>, at: OpenRequest): Response {
  try {
    return respond(at.matched.value.route.shape!(body, input), at.mediaType, false);
  } catch (error) {
    return failed(error, at);
  }
}

function answerResult(result: RouteResult, at: OpenRequest): Response {
  try {
    return respond(result, at.mediaType, false);
  } catch (error) {
    return failed(error, at);
  }
}

/** An error answered as on every route: through the request the other plans build. */
function failed(error: unknown, at: OpenRequest): Response {
  return errorResponse(
    error,
    new RouteRequest(at.pipeline, at.request, at.path, at.matched, at.mediaType),
  );
}
