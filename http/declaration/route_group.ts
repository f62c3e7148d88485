import type { AnyClass } from "@kit/kernel";
import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "@kit/kernel/internal";
import type { DeclaredCode } from "../contract/route_errors.ts";
import type { GuardLike } from "./guard.ts";

/** The options of `@RouteGroup`. */
export interface RouteGroupOptions {
  /** The path prefix of its routes (after its parent's). */
  readonly prefix?: string;
  /** Tags of its routes in the document. */
  readonly tags?: readonly string[];
  /** Guards of its routes, after its parent's. */
  readonly guards?: readonly GuardLike[];
  /** Error codes its routes may answer (declared codes, or names of codes of known status). */
  readonly errors?: readonly DeclaredCode[];
  /** The group it is nested in. */
  readonly parent?: AnyClass;
}

/** What a group resolves to, its parents' options included. */
export interface ResolvedGroup {
  /** The full prefix. */
  readonly prefix: string;
  /** Tags, parent's first. */
  readonly tags: readonly string[];
  /** Guards in order: parent group, group. */
  readonly guards: readonly GuardLike[];
  /** Error codes of the groups. */
  readonly errors: readonly DeclaredCode[];
}

/** The declaration kind of route groups. */
export const routeGroupDeclarations: DeclarationKind<RouteGroupOptions> = declarationKind<
  RouteGroupOptions
>("route-group");

/**
 * Declares a route group on an empty class: a prefix, tags, guards and error codes its routes
 * share. A child group (`parent`) inherits and extends its parent's.
 *
 * @example
 * ```ts ignore
 * @RouteGroup({ prefix: "/practices/:practiceId", tags: ["practices"], guards: [Authenticated] })
 * export class PracticeRoutes {}
 * @RouteGroup({ parent: PracticeRoutes, prefix: "/agenda", tags: ["agenda"] })
 * export class AgendaRoutes {}
 * ```
 */
export function RouteGroup(options: RouteGroupOptions = {}): KitClassDecorator {
  if (options.prefix !== undefined) checkPath(options.prefix, "prefix");
  return classDecorator("RouteGroup", (target) => {
    routeGroupDeclarations.record(target, options);
  });
}

/** Resolves a group with its parents; refuses an undeclared group or a cycle. */
export function resolveGroup(group: AnyClass, seen: AnyClass[] = []): ResolvedGroup {
  const options = routeGroupDeclarations.read(group);
  if (options === undefined) {
    throw new TypeError(`'${group.name}' is not a route group: decorate it with @RouteGroup()`);
  }
  if (seen.includes(group)) {
    throw new Error(
      `Route groups form a cycle: ${[...seen, group].map((g) => g.name).join(" -> ")}`,
    );
  }
  const parent = options.parent ? resolveGroup(options.parent, [...seen, group]) : undefined;
  return {
    prefix: joinPaths(parent?.prefix ?? "", options.prefix ?? ""),
    tags: [...(parent?.tags ?? []), ...(options.tags ?? [])],
    guards: [...(parent?.guards ?? []), ...(options.guards ?? [])],
    errors: [...(parent?.errors ?? []), ...(options.errors ?? [])],
  };
}

/** Joins path pieces: `/practices/:practiceId` + `/agenda` + `/` gives `/practices/:practiceId/agenda`. */
export function joinPaths(...pieces: readonly string[]): string {
  const segments = pieces.flatMap((piece) => piece.split("/")).filter((s) => s.length > 0);
  return "/" + segments.join("/");
}

/** Refuses a path that does not start with `/` or holds an empty parameter name. */
export function checkPath(path: string, what: string): void {
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new TypeError(`A route ${what} must start with '/', got ${JSON.stringify(path)}`);
  }
  for (const segment of path.split("/")) {
    if (segment.startsWith(":") && !/^:[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) {
      throw new TypeError(`Invalid path parameter '${segment}' in route ${what} '${path}'`);
    }
  }
}
