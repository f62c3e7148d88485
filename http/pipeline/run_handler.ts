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
  if (at.route.handle !== undefined) return answerBody(at);
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

/**
 * A controller route's handler, its body shaped and answered in one continuation (`run` would
 * chain a second promise to shape it).
 */
function answerBody(at: RouteRequest): Response | Promise<Response> {
  const route = at.route;
  const input = inputOf(at);
  const body = route.needsScope
    ? runInScope({ execution: at.execution! }, route.handle!, input)
    : route.handle!(input);
  if (body instanceof Promise) {
    return body.then(
      (value) => answerShaped(at, input, value),
      (error) => errorResponse(error, at),
    );
  }
  return respond(route.shape!(body, input), at.mediaType, at.identified);
}

function answerShaped(at: RouteRequest, input: Record<string, unknown>, body: unknown): Response {
  try {
    return respond(at.route.shape!(body, input), at.mediaType, at.identified);
  } catch (error) {
    return errorResponse(error, at);
  }
}

/** What the handler is given: the validated parts, its actor and its execution context. */
function inputOf(at: RouteRequest): Record<string, unknown> {
  const execution = at.execution!;
  const input = at.validated;
  if (input === undefined) return { actor: execution.actor, context: execution };
  input.actor = execution.actor;
  input.context = execution;
  return input;
}

function run(at: RouteRequest): RouteResult | Promise<RouteResult> {
  const input = inputOf(at);
  return at.route.needsScope ? runInItsScope(at, input) : at.route.run(input, at.request);
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
