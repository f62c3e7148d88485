// deno-lint-ignore-file no-explicit-any
import type { Container } from "../composition/container.ts";
import { type DeclarationKind, declarationKind } from "../declarations/declaration.ts";
import type { EventHandler } from "./handles_event.ts";
import type { IntegrationEventDefinition } from "./integration_event.ts";

/**
 * What a declaration that consumes several events under one name records (a process manager):
 * the events plugin subscribes `name` to each event and delivers them to the handler that
 * `consumer` builds, as it does for `@HandlesEvent` handlers.
 */
export interface EventConsumerDeclaration {
  /** The consumer's name, `<context>.<name>`: its deliveries are tracked under it. */
  readonly name: string;
  /** The events it receives. */
  readonly events: readonly IntegrationEventDefinition<any>[];
  /** Builds the handler the relay delivers to, from the application's container. */
  readonly consumer: (container: Container) => EventHandler;
}

/** The declaration kind of event consumers (see {@linkcode EventConsumerDeclaration}). */
export const eventConsumerDeclarations: DeclarationKind<EventConsumerDeclaration> = declarationKind<
  EventConsumerDeclaration
>("event-consumer");
