import assert from "node:assert/strict";
import { z } from "zod";
import { defineIntegrationEvent, defineModule, type IntegrationEvent } from "../mod.ts";
import { processManagerDeclarations } from "../internal.ts";
import { onEvent, ProcessManager } from "../process.ts";

const Started = defineIntegrationEvent({
  type: "billing.invoice.sent",
  version: 1,
  payload: z.object({ invoiceId: z.string() }),
});
const Paid = defineIntegrationEvent({
  type: "billing.invoice.paid",
  version: 1,
  payload: z.object({ invoiceId: z.string() }),
});
const State = z.object({ sent: z.boolean() });
type State = z.infer<typeof State>;
const sent = onEvent(Started, { key: (p) => p.invoiceId, transition: "sent" });

Deno.test("@ProcessManager() records its events by type, with their keys and transitions", () => {
  @ProcessManager({ name: "billing.dunning", state: State, startsOn: [sent] })
  class Dunning {
    sent(_event: IntegrationEvent<{ invoiceId: string }>): Promise<State> {
      return Promise.resolve({ sent: true });
    }
  }
  const declaration = processManagerDeclarations.read(Dunning)!;
  assert.equal(declaration.context, "billing");
  assert.equal(declaration.events.get("billing.invoice.sent")?.starts, true);
  assert.equal(
    declaration.events.get("billing.invoice.sent")?.key({ invoiceId: "i1" }, {} as never),
    "i1",
  );
});

Deno.test("@ProcessManager() refuses a bad name, no starting event, an event twice, a bad deadline", () => {
  assert.throws(
    () => ProcessManager({ name: "Dunning", state: State, startsOn: [sent] }),
    /Invalid process manager name "Dunning"/,
  );
  assert.throws(
    () => ProcessManager({ name: "billing.dunning", state: State, startsOn: [] }),
    /needs startsOn: at least one event/,
  );
  assert.throws(
    () =>
      ProcessManager({ name: "billing.dunning", state: State, startsOn: [sent], handles: [sent] }),
    /lists the event 'billing.invoice.sent' twice/,
  );
  assert.throws(
    () =>
      ProcessManager({
        name: "billing.dunning",
        state: State,
        startsOn: [sent],
        deadlines: { "no good": "x" },
      } as never),
    /declares the deadline "no good"/,
  );
  assert.throws(
    () => ProcessManager({ name: "billing.dunning", state: {} as never, startsOn: [sent] }),
    /needs a state schema/,
  );
});

Deno.test("@ProcessManager() refuses a class without a named transition (untyped callers)", () => {
  const decorate = ProcessManager({
    name: "billing.dunning",
    state: State,
    startsOn: [sent],
    handles: [onEvent(Paid, { key: (p) => p.invoiceId, transition: "paid" })],
  }) as unknown as (target: unknown) => void;
  class Half {
    sent(): Promise<State> {
      return Promise.resolve({ sent: true });
    }
  }
  assert.throws(
    () => decorate(Half),
    /names the transition 'paid', which class 'Half' does not have/,
  );
});

Deno.test("the module builder declares a process manager as @ProcessManager does", () => {
  class Reminders {
    sent(_event: IntegrationEvent<{ invoiceId: string }>): Promise<State> {
      return Promise.resolve({ sent: true });
    }
  }
  const module = defineModule(
    "billing",
    (builder) =>
      builder.processManager(Reminders, {
        name: "billing.reminders",
        state: State,
        startsOn: [sent],
      }),
  );
  assert.deepEqual(module.declarations, [Reminders]);
  assert.equal(processManagerDeclarations.read(Reminders)?.name, "billing.reminders");
});
