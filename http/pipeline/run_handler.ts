/**
 * The last step of a route's plan (the spec's 5-10: handle, mapper, bus, handler, serializer,
 * declared status and body): the handler run with the validated request in the request's work
 * scope, its result answered. Internal to the pipeline.
 *
 * @module
 */
import { runInScope } from "@kit/kernel";
import { cachedAnswer } from "../cache/cached_answer.ts";
import { errorResponse, respond } from "./answer.ts";
import type { RouteResult } from "./compiled_route.ts";
import type { RouteRequest } from "./route_request.ts";

/** Runs the handler and answers its result; synchronous while the handler is. */
export function runHandler(at: RouteRequest): Response | Promise<Response> {
  const ran = run(at);
  if (ran instanceof Promise) {
    return ran.then((result) => answerResult(at, result), (error) => errorResponse(error, at));
  }
  return respond(ran, at.mediaType, at.identified);
}

/** Runs the handler of a route with a cache policy, which decides the answer's caching. */
export async function runCachedHandler(at: RouteRequest): Promise<Response> {
  try {
    const ran = run(at);
    return await cachedAnswer(at, at.route.cache!, ran instanceof Promise ? await ran : ran);
  } catch (error) {
    return errorResponse(error, at);
  }
}

function run(at: RouteRequest): RouteResult | Promise<RouteResult> {
  const { route, request } = at;
  const execution = at.execution!;
  let input = at.validated;
  if (input === undefined) input = { actor: execution.actor, context: execution };
  else {
    input.actor = execution.actor;
    input.context = execution;
  }
  return route.needsScope ? runInItsScope(at, input) : route.run(input, request);
}

/** The route's `run` in the request's work scope (the closure made only for such a route). */
function runInItsScope(
  at: RouteRequest,
  input: Record<string, unknown>,
): RouteResult | Promise<RouteResult> {
  return runInScope({ execution: at.execution! }, () => at.route.run(input, at.request));
}

function answerResult(at: RouteRequest, result: RouteResult): Response {
  try {
    return respond(result, at.mediaType, at.identified);
  } catch (error) {
    return errorResponse(error, at);
  }
}
