import assert from "node:assert/strict";
import { runInScope, systemActor, TransactionManager } from "@kit/kernel";
import { ProcessStore } from "@kit/kernel/process";
import { TestClock } from "@kit/kernel/testing";
import { testApplication } from "../../../../platform/platform-test.module.ts";
$eventImports$
import { $camel$Module } from "../../$context$.module.ts";
import { $name$, type $name$State } from "./$kebab$.process.ts";
$day$
const t0 = new Date("2026-01-05T09:00:00.000Z");

Deno.test("$name$ starts on $startEvent$$runsDeadlines$", async () => {
  const clock = new TestClock(t0);
  const application = testApplication([$camel$Module], { clock });
  const transactions = application.resolve(TransactionManager);
  const store = application.resolve(ProcessStore);
  const execution = { origin: "test", actor: systemActor, tenantId: "t1", correlationId: "spec" };
  // In a unit of work of the tenant, as a command's handler publishes.
  const inTenant = <T>(work: () => Promise<T>) =>
    transactions.run((unitOfWork) => runInScope({ execution, unitOfWork }, work));
  const instance = () =>
    transactions.run((unit) =>
      store.instanceLoad({ process: $name$.processName, tenantId: "t1", key: $key$, unit })
    );
  const state = async () => (await instance())?.state as $name$State | undefined;

  await inTenant(() => application.events.publisher.publish($startEvent$, $startPayload$));
  await application.events.relay.deliverDue();
  const started = await instance();
  assert.equal(started?.status, "active", "$startEvent$ started an instance");
  assert.equal((await state())?.last, "$startEvent$");$deadlineChecks$$handledCheck$
$steps$
});
