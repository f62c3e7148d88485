/**
 * The tenant a request runs for: the one it names (checked: its shape, and that the caller
 * belongs to it), else the caller's only tenant; and the step of a route's plan that makes the
 * request's execution context for it. Internal to the pipeline.
 *
 * @module
 */
import { type Actor, ForbiddenError } from "@kit/kernel";
import { belongsToTenant, defaultTenant } from "@kit/kernel/internal";
import { problemResponse } from "./answer.ts";
import { refuse } from "./check_guards.ts";
import { problem } from "./problem.ts";
import { anonymous, RequestExecution } from "./request_execution.ts";
import type { RouteRequest } from "./route_request.ts";
import { isWellFormed } from "./unstorable_text.ts";

/** The longest tenant id a request may name, in UTF-16 code units. */
export const maxTenantIdLength = 128;

// C0 and C1 control characters, DEL, and the line and paragraph separators.
// deno-lint-ignore no-control-regex
const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * What is wrong with a tenant id a request names, as a problem's detail, or `undefined` when it
 * may be passed on: it must not be empty, longer than {@linkcode maxTenantIdLength}, hold a
 * control character or be ill-formed UTF-16.
 */
export function tenantIdFault(tenantId: string): string | undefined {
  if (tenantId.length === 0) return "The tenant the request names is empty";
  if (tenantId.length > maxTenantIdLength) {
    return `The tenant the request names is longer than ${maxTenantIdLength} characters`;
  }
  if (control.test(tenantId)) return "The tenant the request names holds a control character";
  if (!isWellFormed(tenantId)) return "The tenant the request names is not well-formed text";
  return undefined;
}

/**
 * The tenant the work of a request runs for: the one the request names, else the caller's only
 * tenant (`defaultTenant`); none for a caller of several tenants who names none, or an anonymous
 * one.
 */
export function tenantOfWork(
  named: string | undefined,
  actor: Actor | undefined,
): string | undefined {
  if (named !== undefined) return named;
  return actor === undefined ? undefined : defaultTenant(actor);
}

/**
 * The step of the execution context (the spec's 3): the tenant the request names (400
 * `INVALID_TENANT` for a malformed one; a caller who does not belong to it is refused as by the
 * guard `TenantMember`, 403), else the caller's only tenant, else none.
 */
export function enterTenant(at: RouteRequest): Response | Promise<never> | undefined {
  const named = at.pipeline.tenantOf(at.params, at.request);
  const actor = at.caller?.actor;
  if (named !== undefined) {
    const fault = tenantIdFault(named);
    if (fault !== undefined) {
      return problemResponse(problem(400, "INVALID_TENANT", fault, at.path), at.identified);
    }
  }
  at.execution = new RequestExecution(
    at.request,
    actor ?? anonymous,
    at.caller?.session,
    tenantOfWork(named, actor),
  );
  if (named !== undefined && actor !== undefined && !belongsToTenant(actor, named)) {
    return refuse(
      at,
      "TenantMember",
      new ForbiddenError(`The caller does not belong to tenant '${named}'`),
    );
  }
  return undefined;
}
