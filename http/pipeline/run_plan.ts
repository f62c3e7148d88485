import { errorResponse } from "./answer.ts";
import { type BodyResult, readJsonBodyInto } from "./read_body.ts";
import type { RoutePlan } from "./route_plan.ts";
import type { RouteRequest } from "./route_request.ts";
import { validateBody, validateRead } from "./validate_parts.ts";

/**
 * Runs a route's plan for a request, from step `from`: each step in turn, then the handler's
 * answer. It stays synchronous while every step is (no promise, no turn of the microtask queue
 * for a route whose authenticators, schemas, guards and handler are synchronous); after a step
 * that answers a promise it goes on from the next step once the promise settles. A step that
 * answers a response ends the plan with it; an error thrown or rejected is answered as a problem.
 */
export function runPlan(
  plan: RoutePlan,
  at: RouteRequest,
  from = 0,
): Response | Promise<Response> {
  const steps = plan.steps;
  try {
    for (let i = from; i < steps.length; i++) {
      const step = steps[i]!;
      // The body's step goes on with the plan in its read's own continuation.
      if (step === validateBody) return validateBodyThenRest(at);
      const done = step(at);
      if (done === undefined) continue;
      if (done instanceof Promise) return resume(plan, at, done, i + 1);
      return done;
    }
    return plan.answer(at);
  } catch (error) {
    return errorResponse(error, at);
  }
}

/**
 * The plan from step `next` once `done` settles. Its own function: closures in the loop above
 * would capture its `i`, and V8 would then allocate a context for every step of every request.
 */
function resume(
  plan: RoutePlan,
  at: RouteRequest,
  done: Promise<Response | undefined>,
  next: number,
): Promise<Response> {
  return done.then(
    (response) => response ?? runPlan(plan, at, next),
    (error) => errorResponse(error, at),
  );
}

/**
 * The body's step (`validateBody`) and the plan's steps after it (`afterBody`): once the body is
 * read, the rest runs in the read's own continuation, not in a second one chained to it by
 * `resume` (issue #33).
 */
function validateBodyThenRest(at: RouteRequest): Response | Promise<Response> {
  const { pipeline } = at;
  return readJsonBodyInto(
    at.request,
    pipeline.bodyLimit,
    at.path,
    pipeline.bodyTimeoutMs,
    goOn,
    at,
    failed,
  );
}

/** The body validated, then the plan's next steps and its answer. */
function goOn(at: RouteRequest, body: BodyResult): Response | Promise<Response> {
  let done: Response | undefined | Promise<undefined>;
  try {
    done = validateRead(at, body);
  } catch (error) {
    return errorResponse(error, at);
  }
  const plan = at.plan;
  if (done === undefined) return runPlan(plan, at, plan.afterBody);
  if (done instanceof Promise) return resume(plan, at, done, plan.afterBody);
  return done;
}

function failed(at: RouteRequest, error: unknown): Response {
  return errorResponse(error, at);
}
