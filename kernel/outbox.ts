/**
 * The outbox and its relay: the `Outbox` interface with its records and parameters (for an outbox
 * of one's own: `InMemoryOutbox` is in `@kit/kernel`, `PostgresOutbox` in `@kit/kernel/postgres`),
 * the relay that delivers what it holds to the event handlers, and the events plugin's settings
 * and API (`application.events`).
 *
 * @module
 */
export { type DeadDeliverySelection, EventRelay } from "./events/event_relay.ts";
export type { EventsApi, EventsPluginOptions } from "./events/events_plugin.ts";
export type { EventHandler, EventHandlerDeclaration } from "./events/handles_event.ts";
export type {
  DeadDelivery,
  DeadDeliveryFilter,
  Outbox,
  OutboxBacklogParams,
  OutboxClaimParams,
  OutboxDelivery,
  OutboxFailParams,
  OutboxHandlerBacklog,
} from "./events/outbox.ts";
export type { OutboxGaugesSettings } from "./events/outbox_gauges.ts";
export type { EventRelaySettings } from "./events/relay_settings.ts";
export type { RelayStallOptions } from "./events/relay_stall.ts";
