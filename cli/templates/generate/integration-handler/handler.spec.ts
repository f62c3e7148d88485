import assert from "node:assert/strict";
import {
  accessPolicy,
  composeApplication,
  eventsPlugin,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  TransactionManager,
} from "@kit/kernel";
import { memoryRepositories, providers } from "../../../../platform/compose-application.ts";
import { $event$ } from "$eventImport$";
import { $camel$Module } from "../../$context$.module.ts";
import { $name$ } from "./$file$";

Deno.test("$handlerName$ reacts to $anEvent$ once, and not again when it is redelivered", async () => {
  const reacted: string[] = [];
  const react = $name$.prototype.react;
  $name$.prototype.react = function (this: $name$, event) {
    reacted.push(event.id);
    return react.call(this, event);
  };
  try {
    const outbox = new InMemoryOutbox();
    const application = composeApplication({
      modules: [$camel$Module],
      providers: [...providers, ...memoryRepositories],
      accessPolicy: accessPolicy({ grants: {} }),
      plugins: {
        events: eventsPlugin({ outbox, processedEvents: new InMemoryProcessedEvents(), start: false }),
      },
    });
    const event = await $event$.create($payload$);
    await application.resolve(TransactionManager).run((unit) => outbox.append(event, unit));
    await application.events.relay.deliverDue();
    outbox.redeliver(event.id);
    await application.events.relay.deliverDue();
    assert.deepEqual(reacted, [event.id]);
  } finally {
    $name$.prototype.react = react;
  }
});
