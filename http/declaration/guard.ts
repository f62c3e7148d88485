// deno-lint-ignore-file no-explicit-any
import type { Actor, Session } from "@kit/kernel";
import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "@kit/kernel/internal";
import type { DeclaredCode } from "../contract/route_errors.ts";

/** What a guard sees of a request: the caller and the request, never the domain. */
export interface GuardRequest {
  /** The identified caller; absent for an anonymous request. */
  readonly actor: Actor | undefined;
  /** The caller's session (scopes). */
  readonly session: Session | undefined;
  /** Request headers by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  /** Path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /**
   * The tenant the work runs for: the one the request names (the caller a member of it), else
   * the caller's only tenant; undefined for a caller of several who names none.
   */
  readonly tenantId: string | undefined;
}

/** What a guard adds to the contract of every route behind it. */
export interface GuardDocuments {
  /** Error codes it may answer (`UNAUTHORIZED`, `FORBIDDEN`, or a declared code). */
  readonly errors?: readonly DeclaredCode[];
  /** Security schemes it checks (`bearer`, `apiKey`). */
  readonly security?: readonly string[];
  /**
   * Names of the permissions it checks (`appointment.cancel`): listed in the `x-permissions` of
   * every operation behind it.
   */
  readonly permissions?: readonly string[];
}

/**
 * Decides at the edge whether the caller may use a route at all. Returns to let the request
 * through; throws `UnauthorizedError` (401) or `ForbiddenError` (403) to refuse it.
 */
export interface Guard {
  /** A name for messages and the document. */
  readonly name?: string;
  /** What it adds to the contract of the routes behind it. */
  readonly documents?: GuardDocuments;
  /** Lets the request through, or throws. */
  check(request: GuardRequest): void | Promise<void>;
}

/** A guard class with dependencies, built by the composition root (`@Guard()`). */
export type GuardClass = abstract new (...args: any[]) => Guard;

/** A guard value, or a `@Guard()` class. */
export type GuardLike = Guard | GuardClass;

/** What `@Guard()` records. */
export interface GuardDeclaration {
  /** The documents of the guard class (static `documents`). */
  readonly documents: GuardDocuments;
}

/** The declaration kind of guard classes. */
export const guardDeclarations: DeclarationKind<GuardDeclaration> = declarationKind<
  GuardDeclaration
>(
  "guard",
);

/**
 * Declares a project guard with dependencies: built from its constructor by the composition
 * root. Its static `documents` join the contract of the routes behind it.
 *
 * @example
 * ```ts ignore
 * @Guard()
 * export class ApiKeyGuard {
 *   static readonly documents = { errors: ["UNAUTHORIZED"], security: ["apiKey"] };
 *   constructor(private readonly keys: ApiKeys) {}
 *   async check(request: GuardRequest): Promise<void> {
 *     const key = request.headers["x-api-key"];
 *     if (typeof key !== "string" || !(await this.keys.isActive(key))) throw new UnauthorizedError();
 *   }
 * }
 * ```
 */
export function Guard(): KitClassDecorator<
  (abstract new (...args: any[]) => { check(request: GuardRequest): void | Promise<void> }) & {
    readonly documents?: GuardDocuments;
  }
> {
  return classDecorator("Guard", (target) => {
    guardDeclarations.record(target, { documents: target.documents ?? {} });
  });
}

/** The documents of a guard value or class. */
export function documentsOf(guard: GuardLike): GuardDocuments {
  if (typeof guard === "function") return guardDeclarations.read(guard)?.documents ?? {};
  return guard.documents ?? {};
}

/** The name of a guard for messages. */
export function guardName(guard: GuardLike): string {
  return typeof guard === "function" ? guard.name : guard.name ?? "an anonymous guard";
}
