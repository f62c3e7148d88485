import assert from "node:assert/strict";
import { currentScope, runInScope, userActor } from "@kit/kernel";
import type { BackgroundJobsApi } from "@kit/jobs";
import { testApplication } from "../../../../platform/platform-test.module.ts";
import { $camel$Module } from "../../$context$.module.ts";
import { $camel$Permissions } from "../../$context$.permissions.ts";
$seededImports$import { $name$ } from "./$kebab$.job.ts";

Deno.test("$name$ enqueued by a user runs what is due as that user, in their tenant", async () => {
  const user = userActor("someone", { roles: ["granted"], tenants: ["t1"] });
  const execution = { origin: "test", actor: user, tenantId: "t1", correlationId: "spec" };
$seededRepository$  const application = testApplication([$camel$Module], {
    grants: { granted: Object.values($camel$Permissions) },$seededProvider$
  });
  // What the handler is sent: the command, its actor, the tenant it runs in (only $command$:
  // the context's other jobs may run when due too).
  const seen: { command: string; actor: string; tenant: string | undefined }[] = [];
  const bus = application.commands;
  const execute = bus.execute.bind(bus);
  bus.execute = (command) => {
    if (command.constructor.name === "$command$") {
      seen.push({
        command: command.constructor.name,
        actor: command.actor.id,
        tenant: currentScope()?.execution.tenantId,
      });
    }
    return execute(command);
  };
  const jobs = application.backgroundJobs as BackgroundJobsApi;
  const { id } = await runInScope({ execution }, () => jobs.enqueue($name$, { $sample$ }));
  assert.equal(seen.length, 0, "nothing runs at enqueue");
  assert.ok(await jobs.runDue() >= 1, "the job was due");
  assert.equal((await jobs.find(id))?.status, "succeeded");
  // A scheduled job's tick may send $command$ too, as the system: the user's are this job's.
  const asUser = seen.filter((sent) => sent.actor !== "system");
  assert.deepEqual(
    asUser,
    [{ command: "$command$", actor: "someone", tenant: "t1" }],
    `$name$ sent $command$ once as its user, in their tenant; sent: ${JSON.stringify(seen)}`,
  );
});
