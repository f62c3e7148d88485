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

/** What `@Requires` (or `builder.requires`) records on a message class. */
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
 * Checks a permission's declaration and answers what records it on the message class: the one
 * rule set of `@Requires(..)` and `builder.requires(..)`. The permission and the options are
 * refused at once (`declaredBy` names who in the message); a second permission of the same
 * message when the returned function records it.
 */
export function requirementDeclarer<M extends Message>(
  permission: Permission,
  options: { readonly resource?: (message: M) => Resource },
  declaredBy: string,
): (target: MessageClass<M>) => void {
  if (
    permission === null || typeof permission !== "object" || typeof permission.name !== "string"
  ) {
    throw new TypeError(
      `${declaredBy} takes a permission from definePermissions(), got ${String(permission)}`,
    );
  }
  if (options === null || typeof options !== "object") {
    throw new TypeError(`${declaredBy} takes its options as an object, got ${String(options)}`);
  }
  const resource = options.resource;
  if (resource !== undefined && typeof resource !== "function") {
    throw new TypeError(
      `${declaredBy} resource must be a function of the message answering { type, id }, got ${
        String(resource)
      }`,
    );
  }
  return (target) => {
    if (requirements.read(target) !== undefined) {
      throw new TypeError(
        `${declaredBy}: '${target.name}' declares its permission already (@Requires or builder.requires): a message requires one permission, declared once`,
      );
    }
    requirements.record(target, {
      permission,
      ...(resource ? { resource: resource as (message: Message) => Resource } : {}),
    });
  };
}

/**
 * Declares the permission a command or query needs. The bus decides it for the message's actor
 * whoever sends it (a route, a job, an event handler). In the builder style, the module file
 * declares it instead: `builder.requires(ClearCalendar, permissions["calendar.clear"], {...})`.
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
  const record = requirementDeclarer(permission, options, "@Requires()");
  return classDecorator<MessageClass<M>>("Requires", record);
}

/**
 * The requirement `@Requires` (or `builder.requires`) recorded on a command or query class: its
 * permission (what a route that sends it documents), or undefined for a message that requires none.
 *
 * @example
 * ```ts ignore
 * requirementOf(ClearCalendar)?.permission.name; // "calendar.clear"
 * ```
 */
export function requirementOf(message: MessageClass): Requirement | undefined {
  return requirements.read(message);
}
