import type { RouteRequest } from "./route_request.ts";

/**
 * The step of the caller (the spec's 1): the route's authenticators in order, the first that
 * identifies one wins; none identifies: anonymous. Synchronous while the authenticators are.
 */
export function authenticate(at: RouteRequest): Promise<undefined> | undefined {
  return authenticateFrom(at, 0);
}

function authenticateFrom(at: RouteRequest, from: number): Promise<undefined> | undefined {
  const authenticators = at.route.authenticators;
  for (let i = from; i < authenticators.length; i++) {
    const found = authenticators[i]!.authenticate(at.request);
    if (found instanceof Promise) {
      return found.then((caller) => {
        if (caller === undefined) return authenticateFrom(at, i + 1);
        at.caller = caller;
        return undefined;
      });
    }
    if (found !== undefined) {
      at.caller = found;
      return undefined;
    }
  }
  return undefined;
}
