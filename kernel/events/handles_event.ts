// deno-lint-ignore-file no-explicit-any
import {
  type AnyClass,
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "../declarations/declaration.ts";
import type { HandlerContext } from "../messaging/handles.ts";
import type { IntegrationEvent, IntegrationEventDefinition } from "./integration_event.ts";

/** Reacts to one event type. */
export interface EventHandler<Payload = unknown> {
  /** Runs the reaction, in its own unit of work. */
  handle(event: IntegrationEvent<Payload>, context: HandlerContext): Promise<void>;
}

/** What `@HandlesEvent` records on a handler class. */
export interface EventHandlerDeclaration {
  /** The event it reacts to. */
  readonly event: IntegrationEventDefinition<any>;
  /** Its name, `<context>.<reaction>`: deliveries are tracked under it. */
  readonly name: string;
}

/** The declaration kind of event handlers. */
export const eventHandlerDeclarations: DeclarationKind<EventHandlerDeclaration> = declarationKind<
  EventHandlerDeclaration
>("event-handler");

const namePattern = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

/**
 * Declares the class as a consumer of an integration event. The name is the handler's identity
 * in the outbox: renaming it makes a new consumer.
 *
 * @example
 * ```ts ignore
 * @HandlesEvent(AppointmentBooked, { name: "notifications.appointments-appointment-booked" })
 * class SendBookingConfirmation {
 *   async handle(event: IntegrationEvent<Infer<typeof AppointmentBooked>>): Promise<void> { ... }
 * }
 * ```
 */
export function HandlesEvent<Payload>(
  event: IntegrationEventDefinition<Payload>,
  options: { name: string },
): KitClassDecorator<
  abstract new (...args: any[]) => {
    handle(event: IntegrationEvent<Payload>, context: HandlerContext): Promise<void>;
  }
> {
  return classDecorator("HandlesEvent", eventHandlerDeclarer(event, options, "@HandlesEvent()"));
}

/**
 * Checks an event handler's event and name and answers what records a class as its consumer: the
 * one rule set of `@HandlesEvent()` and `builder.eventHandler(..)` (`declaredBy` names who in the
 * message).
 */
export function eventHandlerDeclarer(
  event: IntegrationEventDefinition<any>,
  options: { readonly name: string },
  declaredBy: string,
): (target: AnyClass) => void {
  if (typeof event?.type !== "string" || typeof event.create !== "function") {
    throw new TypeError(
      `${declaredBy} takes an event from defineIntegrationEvent(), got ${String(event)}`,
    );
  }
  if (typeof options?.name !== "string" || !namePattern.test(options.name)) {
    throw new TypeError(
      `Invalid event handler name ${
        JSON.stringify(options?.name)
      }: use '<context>.<reaction>' in kebab-case`,
    );
  }
  return (target) => eventHandlerDeclarations.record(target, { event, name: options.name });
}
