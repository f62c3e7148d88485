import { type Token, token } from "../composition/token.ts";
import type { Actor } from "../actor/actor.ts";
import type { ExecutionContext } from "../actor/execution_context.ts";
import type { Message } from "./message.ts";
import type { Permission } from "./permissions.ts";
import type { Resource } from "./requires.ts";

/** What the access policy is asked: may this actor do this to this element? */
export interface AccessRequest {
  /** The actor of the message. */
  readonly actor: Actor;
  /** The permission the message requires. */
  readonly permission: Permission;
  /** The element, when the message names one. */
  readonly resource?: Resource;
  /** The message itself. */
  readonly message: Message;
  /**
   * The work the message is sent in: its tenant (`execution.tenantId`), elevation and origin,
   * so that a policy can refuse an element of another tenant.
   */
  readonly execution: ExecutionContext;
  /** Whether the actor's roles are granted the permission. */
  readonly granted: boolean;
}

/** Decides permissions. Built with {@linkcode accessPolicy}. */
export interface AccessPolicy {
  /** Answers whether the actor may do what the message asks. */
  decide(request: Omit<AccessRequest, "granted">): boolean | Promise<boolean>;
}

/** A policy of the explicit style: decides one permission, and may look at the element. */
export interface PermissionPolicy {
  /** The permission it decides. */
  readonly permission: Permission;
  /** Answers the request; `granted` says what the role grants alone would answer. */
  readonly decide: (request: AccessRequest) => boolean | Promise<boolean>;
}

/**
 * Declares the explicit policy of one permission.
 *
 * @example Only the practitioner of the calendar may clear it
 * ```ts ignore
 * definePolicy(permissions["calendar.clear"], ({ actor, resource, granted }) =>
 *   granted && actor.attributes.calendarId === resource?.id);
 * ```
 */
export function definePolicy(
  permission: Permission,
  decide: (request: AccessRequest) => boolean | Promise<boolean>,
): PermissionPolicy {
  return { permission, decide };
}

/** The grants of roles: role name to the permissions it holds. */
export type RoleGrants = Readonly<Record<string, readonly Permission[]>>;

/**
 * Builds the access policy of an application: roles granted permissions, and explicit policies
 * that replace the role check for their permission. The system actor passes every permission.
 *
 * @example
 * ```ts
 * import { accessPolicy, definePermissions, userActor } from "@kit/kernel";
 * const p = definePermissions("scheduling", { "appointment.cancel": { description: "Cancel" } });
 * const policy = accessPolicy({ grants: { receptionist: [p["appointment.cancel"]] } });
 * ```
 */
export function accessPolicy(
  options: { grants?: RoleGrants; policies?: readonly PermissionPolicy[] } = {},
): AccessPolicy {
  const byRole = new Map<string, Set<string>>();
  for (const [role, permissions] of Object.entries(options.grants ?? {})) {
    byRole.set(role, new Set(permissions.map(key)));
  }
  const explicit = new Map<string, PermissionPolicy>();
  for (const policy of options.policies ?? []) {
    const k = key(policy.permission);
    if (explicit.has(k)) throw new Error(`Permission '${policy.permission.name}' has two policies`);
    explicit.set(k, policy);
  }
  return {
    decide(request) {
      if (request.actor.kind === "system") return true;
      const k = key(request.permission);
      let granted = false;
      // Indexed: no iterator made per decision.
      const roles = request.actor.roles;
      for (let i = 0; i < roles.length; i++) {
        if (byRole.get(roles[i]!)?.has(k)) {
          granted = true;
          break;
        }
      }
      const policy = explicit.get(k);
      return policy === undefined ? granted : policy.decide({ ...request, granted });
    },
  };
}

function key(permission: Permission): string {
  // A frozen permission (as `definePermissions` makes them) keeps its key: none made per request.
  if (!Object.isFrozen(permission)) return `${permission.context}:${permission.name}`;
  let found = keys.get(permission);
  if (found === undefined) keys.set(permission, found = `${permission.context}:${permission.name}`);
  return found;
}

const keys = new WeakMap<Permission, string>();

/** The token of the access policy. */
export const AccessPolicy: Token<AccessPolicy> = token<AccessPolicy>("AccessPolicy");
