import type { ApplicationPlugin, CompositionRoot } from "../composition/compose_application.ts";
import type { Clock } from "../time/clock.ts";
import { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import { EventPublisher, OutboxEventPublisher } from "./event_publisher.ts";
import { eventConsumerDeclarations } from "./event_consumers.ts";
import { EventRelay, type EventRelaySettings } from "./event_relay.ts";
import { type EventHandler, eventHandlerDeclarations } from "./handles_event.ts";
import type { IntegrationEventDefinition } from "./integration_event.ts";
import type { Outbox } from "./outbox.ts";
import { OutboxGauges, type OutboxGaugesSettings } from "./outbox_gauges.ts";
import { ProcessedEvents } from "./processed_events.ts";

/** The options of {@linkcode eventsPlugin}. */
export interface EventsPluginOptions extends EventRelaySettings {
  /** Where events wait for delivery. */
  readonly outbox: Outbox;
  /** Remembers processed events for idempotent consumers (provided as `ProcessedEvents`). */
  readonly processedEvents?: ProcessedEvents;
  /** The declared events; when given, publishing any other type is refused. */
  readonly events?: readonly IntegrationEventDefinition<unknown>[];
  /** Run the relay in this process when the application starts (default true). */
  readonly start?: boolean;
  /**
   * The gauges `kit.outbox.backlog` and `kit.outbox.lag` (see `OutboxGauges`), published while
   * the relay runs (default: the global meter provider's meter `kit`); `false`: none.
   */
  readonly metrics?: OutboxGaugesSettings | false;
}

/** What the events plugin adds to the application. */
export interface EventsApi {
  /** Publishes events (also provided to classes as `EventPublisher`). */
  readonly publisher: EventPublisher;
  /** The relay: `deliverDue()` delivers what is due now (tests call it directly). */
  readonly relay: EventRelay;
  /** Handler names by event type, sorted. */
  readonly subscriptions: ReadonlyMap<string, readonly string[]>;
  /** The dead deliveries the work under way may see (see {@linkcode EventRelay.deadDeliveries}). */
  readonly deadDeliveries: EventRelay["deadDeliveries"];
  /** Revives dead deliveries, due now (see {@linkcode EventRelay.retryDead}). */
  readonly retryDead: EventRelay["retryDead"];
}

/**
 * Plugs integration events into the application: provides `EventPublisher`, collects the
 * `@HandlesEvent` handlers of every module, and runs the relay when the application starts
 * (stopping it, cleanly, when the application stops). Events are delivered at least once: a
 * handler may see an event again after a crash or a lost connection, so consumers are idempotent
 * (`processOnce`).
 *
 * @example
 * ```ts ignore
 * const application = composeApplication({
 *   modules,
 *   plugins: { events: eventsPlugin({ outbox: new InMemoryOutbox() }) },
 * });
 * await application.events.relay.deliverDue();
 * ```
 */
export function eventsPlugin(options: EventsPluginOptions): ApplicationPlugin<EventsApi> {
  return {
    name: "events",
    setup(root: CompositionRoot): EventsApi {
      const handlers = new Map<string, () => EventHandler>();
      const owners = new Map<string, string>();
      const byType = new Map<string, string[]>();
      for (const declared of root.declarations(eventHandlerDeclarations)) {
        const { name, event } = declared.metadata;
        const owner = owners.get(name);
        if (owner !== undefined) {
          throw new Error(
            `Event handler name '${name}' is used twice: by '${owner}' and by '${declared.target.name}'`,
          );
        }
        owners.set(name, declared.target.name);
        const target = declared.target;
        handlers.set(name, () => root.container.resolve(target) as EventHandler);
        const list = byType.get(event.type) ?? [];
        list.push(name);
        byType.set(event.type, list);
      }
      for (const declared of root.declarations(eventConsumerDeclarations)) {
        const { name, events, consumer } = declared.metadata;
        const owner = owners.get(name);
        if (owner !== undefined) {
          throw new Error(
            `Event handler name '${name}' is used twice: by '${owner}' and by '${declared.target.name}'`,
          );
        }
        owners.set(name, declared.target.name);
        handlers.set(name, () => consumer(root.container));
        for (const event of events) byType.set(event.type, [...byType.get(event.type) ?? [], name]);
      }
      const subscriptions = new Map(
        [...byType.entries()].sort(([a], [b]) => a.localeCompare(b)).map((
          [type, names],
        ) => [type, names.sort()]),
      );
      options.outbox.subscribe(subscriptions);

      const known = options.events ? new Set(options.events.map((e) => e.type)) : undefined;
      const clock: Clock = root.clock;
      const publisher = new OutboxEventPublisher(options.outbox, clock, known);
      root.container.register(EventPublisher, { useValue: publisher }, "the events plugin");
      if (options.processedEvents) {
        root.container.register(
          ProcessedEvents,
          { useValue: options.processedEvents },
          "the events plugin",
        );
      }
      const relay = new EventRelay({
        outbox: options.outbox,
        handlers,
        transactions: root.container.resolve(TransactionManager),
        clock,
        errorReporter: root.errorReporter,
        logger: root.logger,
        settings: options,
      });

      if (options.start ?? true) {
        const handlerNames = [...handlers.keys()].sort();
        const gauges = options.metrics === false ? undefined : new OutboxGauges({
          ...options.metrics,
          outbox: options.outbox,
          handlers: handlerNames,
          clock,
        });
        root.onStart(() => {
          gauges?.start();
          return relay.start();
        });
        root.onStop(() => {
          gauges?.stop();
          return relay.stop();
        });
      }
      return {
        publisher,
        relay,
        subscriptions,
        deadDeliveries: (filter) => relay.deadDeliveries(filter),
        retryDead: (selection) => relay.retryDead(selection),
      };
    },
  };
}
