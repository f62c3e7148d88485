/** The kinds of caller an {@linkcode Actor} can be. */
export type ActorKind = "user" | "service" | "system";

/** A JSON value, as kept in an actor snapshot or a job payload. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * Who does the work: resolved from the request by the pipeline, carried by every command and
 * query, and snapshotted with every job it enqueues.
 */
export interface Actor {
  /** The stable id of the caller (a user id, a service name, `system`). */
  readonly id: string;
  /** What kind of caller this is. */
  readonly kind: ActorKind;
  /** The roles the caller holds; the access policy grants permissions to roles. */
  readonly roles: readonly string[];
  /** The tenants the caller belongs to. */
  readonly tenants: readonly string[];
  /** Further facts about the caller (JSON only, so that a snapshot survives a queue). */
  readonly attributes: { readonly [key: string]: JsonValue };
}

/** Optional parts of an actor given to {@linkcode userActor} and {@linkcode serviceActor}. */
export interface ActorOptions {
  /** The roles the caller holds. */
  roles?: readonly string[];
  /** The tenants the caller belongs to. */
  tenants?: readonly string[];
  /** Further JSON facts about the caller. */
  attributes?: { readonly [key: string]: JsonValue };
}

/**
 * The actor of work that no caller started (a scheduled job, a relay). The access policy lets it
 * through every permission.
 */
export const systemActor: Actor = Object.freeze({
  id: "system",
  kind: "system",
  roles: Object.freeze([]) as readonly string[],
  tenants: Object.freeze([]) as readonly string[],
  attributes: Object.freeze({}),
});

/**
 * Builds a user actor.
 *
 * @example Build a user with a role in one tenant
 * ```ts
 * import { userActor } from "@kit/kernel";
 * const alice = userActor("alice", { roles: ["practitioner"], tenants: ["clinic-1"] });
 * ```
 */
export function userActor(id: string, options: ActorOptions = {}): Actor {
  return makeActor("user", id, options);
}

/** Builds a service actor (another system calling with its own credential). */
export function serviceActor(id: string, options: ActorOptions = {}): Actor {
  return makeActor("service", id, options);
}

/** Tells whether the actor holds at least one of the roles. */
export function hasRole(actor: Actor, ...roles: readonly string[]): boolean {
  for (const role of roles) if (actor.roles.includes(role)) return true;
  return false;
}

/** Tells whether the actor belongs to the tenant. */
export function belongsToTenant(actor: Actor, tenantId: string): boolean {
  return actor.tenants.includes(tenantId);
}

function makeActor(kind: ActorKind, id: string, options: ActorOptions): Actor {
  if (typeof id !== "string" || id.length === 0) {
    throw new TypeError(`An actor id must be a non-empty string, got ${JSON.stringify(id)}`);
  }
  return {
    id,
    kind,
    roles: options.roles ?? [],
    tenants: options.tenants ?? [],
    attributes: options.attributes ?? {},
  };
}
