/**
 * The steps of the guards (the spec's 4): a route closed without a guard needs an identified
 * caller (401); then its guards in order, parent group, group, controller (a `Public` route has
 * none). Each refusal is told to `onGuardRefusal` before it is answered. Internal to the pipeline.
 *
 * @module
 */
import { UnauthorizedError } from "@kit/kernel";
import type { GuardRequest } from "../declaration/guard.ts";
import { lazyHeaders } from "./request_parts.ts";
import type { RouteRequest } from "./route_request.ts";
import type { Step } from "./route_plan.ts";

/** Refuses an anonymous caller (401, as the guard `Authenticated` would). */
export function requireCaller(at: RouteRequest): Promise<never> | undefined {
  if (at.caller !== undefined) return undefined;
  return refuse(at, "Authenticated", new UnauthorizedError());
}

/** The step of the route's guard at `index`: synchronous while the guard is. */
export function checkGuard(index: number): Step {
  return function checkGuardAt(at: RouteRequest): Promise<undefined> | undefined {
    const guard = at.route.guards[index]!();
    let checked: void | Promise<void>;
    try {
      checked = guard.check(at.guardRequest ??= guardRequestOf(at));
    } catch (error) {
      return refused(at, index, error);
    }
    if (checked instanceof Promise) {
      return checked.then(() => undefined, (error) => refused(at, index, error));
    }
    return undefined;
  };
}

function refused(at: RouteRequest, index: number, error: unknown): Promise<never> {
  if (!(error instanceof Error)) throw error;
  return refuse(at, at.route.guardNames[index]!, error);
}

/** What a guard sees of the request: its caller, tenant, parameters and (read lazily) headers. */
function guardRequestOf(at: RouteRequest): GuardRequest {
  return new GuardView(at);
}

/**
 * A guard's view of a request, shaped as the object literal it replaces (own enumerable
 * `actor`, `session`, `headers` (an accessor), `params`, `tenantId`, in that order), but with one
 * shared getter: a literal with a getter costs a closure and a dictionary per request (about
 * 630 bytes against 56).
 */
class GuardView {
  declare actor: GuardRequest["actor"];
  declare session: GuardRequest["session"];
  declare readonly headers: GuardRequest["headers"];
  declare params: GuardRequest["params"];
  declare tenantId: GuardRequest["tenantId"];
  #request: Request;
  #headers: Readonly<Record<string, string>> | undefined;

  constructor(at: RouteRequest) {
    this.#request = at.request;
    this.#headers = undefined;
    this.actor = at.caller?.actor;
    this.session = at.caller?.session;
    Object.defineProperty(this, "headers", lazyHeadersProperty);
    this.params = at.params;
    this.tenantId = at.execution!.tenantId;
  }

  /** The headers, read from the request when first asked. */
  static headersOf(view: GuardView): Readonly<Record<string, string>> {
    return view.#headers ??= lazyHeaders(view.#request.headers);
  }
}

const lazyHeadersProperty: PropertyDescriptor = {
  get(this: GuardView): Readonly<Record<string, string>> {
    return GuardView.headersOf(this);
  },
  enumerable: true,
  configurable: true,
};

/**
 * Tells `onGuardRefusal`, if any, that `guard` refused the request (a failure of it is
 * reported), then rejects with the refusal, which the plan answers.
 */
export async function refuse(at: RouteRequest, guard: string, error: Error): Promise<never> {
  const { pipeline, route } = at;
  if (pipeline.onGuardRefusal !== undefined) {
    try {
      await pipeline.onGuardRefusal({
        request: at.request,
        route: `${route.method} ${route.path}`,
        guard,
        actor: at.caller?.actor,
        error,
      });
    } catch (failure) {
      pipeline.errorReporter.report(failure, {
        origin: "http",
        details: { stage: "onGuardRefusal" },
      });
    }
  }
  throw error;
}
