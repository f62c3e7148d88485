/** A process manager declared with `experimentalDecorators`: its events and deadlines run alike. */
import assert from "node:assert/strict";
import { z } from "zod";
import {
  composeApplication,
  defineIntegrationEvent,
  defineModule,
  eventsPlugin,
  InMemoryOutbox,
  InMemoryTransactions,
  type IntegrationEvent,
  runInScope,
  systemActor,
} from "@kit/kernel";
import {
  InMemoryProcessStore,
  onEvent,
  type ProcessContext,
  ProcessManager,
  ProcessStore,
} from "@kit/kernel/process";
import { TestClock } from "@kit/kernel/testing";
import { InMemoryJobStore, jobsPlugin } from "@kit/jobs";

const Invited = defineIntegrationEvent({
  type: "identity.member.invited",
  version: 1,
  payload: z.object({ memberId: z.string() }),
});
const State = z.object({ reminded: z.boolean() });
type State = z.infer<typeof State>;

@ProcessManager({
  name: "identity.invitation",
  state: State,
  startsOn: [onEvent(Invited, { key: (p) => p.memberId, transition: "invited" })],
  deadlines: { remind: "remind" },
})
class Invitation {
  invited(
    _event: IntegrationEvent<{ memberId: string }>,
    process: ProcessContext<"remind">,
  ): Promise<State> {
    process.requestDeadline("remind", new Date(process.now.getTime() + 60_000));
    return Promise.resolve({ reminded: false });
  }
  remind(): Promise<State> {
    return Promise.resolve({ reminded: true });
  }
}

Deno.test("experimentalDecorators: a @ProcessManager starts on its event and runs its deadline", async () => {
  const clock = new TestClock("2026-05-01T08:00:00Z");
  const store = new InMemoryProcessStore();
  const transactions = new InMemoryTransactions();
  const app = composeApplication({
    modules: [defineModule("identity", { declarations: [Invitation] })],
    clock,
    transactions,
    providers: [{ provide: ProcessStore, provider: { useValue: store } }],
    plugins: {
      events: eventsPlugin({ outbox: new InMemoryOutbox(), start: false, metrics: false }),
      backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }),
    },
  });
  const execution = { origin: "test", actor: systemActor, correlationId: "c", tenantId: "t1" };
  await transactions.run((unitOfWork) =>
    runInScope({ execution, unitOfWork }, async () => {
      await app.events.publisher.publish(Invited, { memberId: "m1" });
    })
  );
  assert.equal(await app.events.relay.deliverDue(), 1);
  assert.deepEqual(store.instances()[0]?.state, { reminded: false });
  clock.advance(60_000);
  assert.equal(await app.backgroundJobs.runDue(), 1);
  assert.deepEqual(store.instances()[0]?.state, { reminded: true });
});
