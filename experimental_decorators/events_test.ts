/** Event handlers declared with `experimentalDecorators`: delivered like under standard ones. */
import assert from "node:assert/strict";
import { z } from "zod";
import {
  Command,
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  EventPublisher,
  eventsPlugin,
  Handles,
  HandlesEvent,
  InMemoryOutbox,
  type IntegrationEvent,
  systemActor,
} from "@kit/kernel";
import type { EventsApi } from "@kit/kernel/outbox";

const PersonRegistered = defineIntegrationEvent({
  type: "identity.person.registered",
  version: 1,
  payload: z.object({ personId: z.string() }),
});

class RegisterPerson extends Command<void> {
  constructor(readonly personId: string) {
    super(systemActor);
  }
}

const welcomed: string[] = [];

@Handles(RegisterPerson)
class RegisterPersonHandler {
  constructor(private readonly events: EventPublisher) {}
  async handle(command: RegisterPerson): Promise<void> {
    await this.events.publish(PersonRegistered, { personId: command.personId });
  }
}

@HandlesEvent(PersonRegistered, { name: "notifications.identity-person-registered" })
class WelcomePerson {
  handle(event: IntegrationEvent<{ personId: string }>): Promise<void> {
    welcomed.push(event.payload.personId);
    return Promise.resolve();
  }
}

Deno.test("experimentalDecorators: an event published by a command reaches its @HandlesEvent handler", async () => {
  const app = composeApplication({
    modules: [
      defineModule("identity", {
        declarations: [RegisterPersonHandler],
        dependencies: new Map([[RegisterPersonHandler, [EventPublisher]]]),
      }),
      defineModule("notifications", { declarations: [WelcomePerson] }),
    ],
    plugins: { events: eventsPlugin({ outbox: new InMemoryOutbox(), start: false }) },
  });
  await app.commands.execute(new RegisterPerson("p1"));
  assert.equal(await (app.events as EventsApi).relay.deliverDue(), 1);
  assert.deepEqual(welcomed, ["p1"]);
});
