import { HandlesEvent, type IntegrationEvent, type EventPayloadOf, processOnce, type ProcessedEvents } from "@kit/kernel";
import { $event$ } from "$eventImport$";

/** Reacts to $event$ of $upstream$, once per event (a redelivery is ignored). */
@HandlesEvent($event$, { name: "$handlerName$" })
export class $name$ {
  constructor(private readonly processed: ProcessedEvents) {}

  /** Runs the reaction the first time this handler sees the event, in the delivery's unit of work. */
  async handle(event: $payloadType$): Promise<void> {
    await processOnce(this.processed, "$handlerName$", event, () => this.react(event));
  }

  /** What $context$ does when $upstream$ says $words$: once per event. */
  react(_event: $payloadType$): Promise<void> {
    // TODO(domain): what $context$ does when $upstream$ says $words$.
    return Promise.resolve();
  }
}
