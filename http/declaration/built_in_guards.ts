import { ForbiddenError, hasRole, UnauthorizedError } from "@kit/kernel";
import { belongsToTenant, hasScopes } from "@kit/kernel/internal";
import type { SessionScope } from "@kit/kernel";
import type { Guard, GuardRequest } from "./guard.ts";

/** Refuses with 401 (`UNAUTHORIZED`) a request with no identified caller. */
export const Authenticated: Guard = Object.freeze({
  name: "Authenticated",
  documents: { errors: ["UNAUTHORIZED"] },
  check(request: GuardRequest): void {
    if (request.actor === undefined) throw new UnauthorizedError();
  },
});

/**
 * Marks a route open to anyone, out loud. Stands alone: a route with `Public` has no other guard.
 * A Public route reads no credential, whatever parts it declares: its actor is anonymous, a bad
 * or expired token does not matter (no 401), and its document shows `security: []` and no 401.
 * A function route says the same with `security: []`.
 */
export const Public: Guard = Object.freeze({
  name: "Public",
  documents: {},
  check(): void {},
});

/**
 * Lets through a caller holding one of the roles; 401 without a caller, 403 without the role.
 *
 * @example
 * ```ts ignore
 * @RouteGroup({ prefix: "/admin", guards: [HasRole("admin")] })
 * ```
 */
export function HasRole(...roles: readonly string[]): Guard {
  if (roles.length === 0) throw new TypeError("HasRole() needs at least one role");
  return Object.freeze({
    name: `HasRole(${roles.join(", ")})`,
    documents: { errors: ["UNAUTHORIZED", "FORBIDDEN"] },
    check(request: GuardRequest): void {
      if (request.actor === undefined) throw new UnauthorizedError();
      if (!hasRole(request.actor, ...roles)) {
        throw new ForbiddenError(`The caller holds none of the roles ${roles.join(", ")}`);
      }
    },
  });
}

/**
 * Lets through a caller whose session was granted every scope named. Scope names come from the
 * project's `SessionScopes`: a misspelt one does not compile.
 */
export function HasScope(...scopes: readonly SessionScope[]): Guard {
  if (scopes.length === 0) throw new TypeError("HasScope() needs at least one scope");
  return Object.freeze({
    name: `HasScope(${scopes.join(", ")})`,
    documents: { errors: ["UNAUTHORIZED", "FORBIDDEN"] },
    check(request: GuardRequest): void {
      if (request.actor === undefined) throw new UnauthorizedError();
      if (!hasScopes(request.session, scopes)) {
        throw new ForbiddenError(`The session lacks a scope of ${scopes.join(", ")}`);
      }
    },
  });
}

/**
 * Lets through a caller whose request runs for one of its tenants: the one it names (the pipeline
 * has refused a tenant the caller does not belong to), else the caller's only tenant. Refuses a
 * caller of several tenants who names none, and a caller of none.
 */
export const TenantMember: Guard = Object.freeze({
  name: "TenantMember",
  documents: { errors: ["UNAUTHORIZED", "FORBIDDEN"] },
  check(request: GuardRequest): void {
    if (request.actor === undefined) throw new UnauthorizedError();
    if (request.tenantId === undefined || !belongsToTenant(request.actor, request.tenantId)) {
      throw new ForbiddenError(
        "The request runs for no tenant of the caller's: name one the caller belongs to",
      );
    }
  },
});
