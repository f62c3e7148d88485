import { declarationKind, type KitClassDecorator } from "../declarations/declaration.ts";
import { classDecorator } from "../declarations/declaration.ts";
import type { Message, MessageClass } from "./message.ts";
import type { Permission } from "./permissions.ts";

/** The element a permission is decided on. */
export interface Resource {
  /** The type of element (`appointment`). */
  readonly type: string;
  /** Its id. */
  readonly id: string;
}

/** What `@Requires` records on a message class. */
export interface Requirement<M extends Message = Message> {
  /** The permission the actor needs. */
  readonly permission: Permission;
  /** Names the element the message acts on, for policies that look at it. */
  readonly resource?: (message: M) => Resource;
}

/** The declaration kind of `@Requires`. */
export const requirements: import("../declarations/declaration.ts").DeclarationKind<Requirement> =
  declarationKind<Requirement>("requires");

/**
 * Declares the permission a command or query needs. The bus decides it for the message's actor
 * whoever sends it (a route, a job, an event handler).
 *
 * @example
 * ```ts ignore
 * @Requires(permissions["calendar.clear"], {
 *   resource: (c: ClearCalendar) => ({ type: "calendar", id: c.calendarId }),
 * })
 * class ClearCalendar extends AuthorizedCommand<{ jobId: string }> { ... }
 * ```
 */
export function Requires<M extends Message>(
  permission: Permission,
  options: { resource?: (message: M) => Resource } = {},
): KitClassDecorator<MessageClass<M>> {
  if (
    permission === null || typeof permission !== "object" || typeof permission.name !== "string"
  ) {
    throw new TypeError(
      `@Requires() takes a permission from definePermissions(), got ${String(permission)}`,
    );
  }
  return classDecorator<MessageClass<M>>("Requires", (target) => {
    requirements.record(target, {
      permission,
      ...(options.resource ? { resource: options.resource as (message: Message) => Resource } : {}),
    });
  });
}

/**
 * The requirement `@Requires` recorded on a command or query class: its permission (what a route
 * that sends it documents), or undefined for a message that requires none.
 *
 * @example
 * ```ts ignore
 * requirementOf(ClearCalendar)?.permission.name; // "calendar.clear"
 * ```
 */
export function requirementOf(message: MessageClass): Requirement | undefined {
  return requirements.read(message);
}
