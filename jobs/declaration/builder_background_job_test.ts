import assert from "node:assert/strict";
import {
  accessPolicy,
  type Actor,
  AuthorizedCommand,
  type BackgroundJobExecution,
  type Clock,
  CommandBus,
  composeApplication,
  defineModule,
  definePermissions,
  Handles,
  JobQueue,
  Requires,
  runInScope,
  userActor,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import type { ModuleBuilder } from "@kit/kernel/types";
import { Background, type BackgroundJobsApi, InMemoryJobStore, jobsPlugin } from "../mod.ts";
import { jobSettingsOf } from "./background.ts";

const permissions = definePermissions("billing", {
  "invoice.remind": { description: "Remind of an invoice" },
});

interface RemindPayload {
  readonly invoiceId: string;
  readonly note: string;
}

/** A billing context declared with the module builder: a command, its handler, a job sending it. */
function builderScenario(options: { failures?: number; maxAttempts?: number } = {}) {
  const sent: { invoiceId: string; actor: string; attempt: number }[] = [];
  const reported: unknown[] = [];
  let failures = options.failures ?? 0;

  @Requires(permissions["invoice.remind"])
  class RemindInvoice extends AuthorizedCommand<void> {
    constructor(actor: Actor, readonly invoiceId: string, readonly attempt: number) {
      super(actor);
    }
  }

  @Handles(RemindInvoice)
  class RemindInvoiceHandler {
    handle(command: RemindInvoice): Promise<void> {
      if (failures > 0) {
        failures--;
        throw new Error("mail server down");
      }
      sent.push({
        invoiceId: command.invoiceId,
        actor: command.actor.id,
        attempt: command.attempt,
      });
      return Promise.resolve();
    }
  }

  // No decorator: the builder declares it.
  class SendReminder {
    static readonly jobName = "billing.send-reminder";
    constructor(private readonly commands: CommandBus) {}
    async run(payload: RemindPayload, execution: BackgroundJobExecution): Promise<void> {
      await this.commands.execute(
        new RemindInvoice(execution.actor, payload.invoiceId, execution.attempt),
      );
    }
  }

  const clock = new TestClock("2026-06-01T08:00:00Z");
  const module = defineModule("billing", {
    declarations: [RemindInvoice, RemindInvoiceHandler],
  }, (builder) => {
    builder.backgroundJob(SendReminder, {
      maxAttempts: options.maxAttempts ?? 3,
      backoff: () => 60_000,
      deps: [CommandBus],
    });
  });
  const app = composeApplication({
    modules: [module],
    clock,
    accessPolicy: accessPolicy({ grants: { accountant: [permissions["invoice.remind"]] } }),
    errorReporter: { report: (error) => void reported.push(error) },
    plugins: {
      backgroundJobs: jobsPlugin({ store: new InMemoryJobStore(), logger: { log: () => {} } }),
    },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi<InMemoryJobStore>;
  return { app, jobs, clock, sent, reported, SendReminder, module };
}

const user = userActor("ada", { roles: ["accountant"], tenants: ["t1"] });
const execution = { origin: "test", actor: user, tenantId: "t1", correlationId: "builder" };

Deno.test("builder.backgroundJob declares a job the worker runs as its enqueuing actor", async () => {
  const { jobs, sent, SendReminder, module } = builderScenario();
  assert.ok(module.declarations.includes(SendReminder), "the module lists the job");
  const { id } = await runInScope(
    { execution },
    () => jobs.enqueue(SendReminder, { invoiceId: "inv-1", note: "due" }),
  );
  assert.deepEqual(sent, [], "nothing runs at enqueue");
  assert.equal(await jobs.runDue(), 1);
  assert.deepEqual(sent, [{ invoiceId: "inv-1", actor: "ada", attempt: 1 }]);
  const job = await jobs.find(id);
  assert.equal(job?.status, "succeeded");
  assert.equal(job?.name, "billing.send-reminder");
});

Deno.test("builder.backgroundJob's options hold: a failed attempt waits its backoff, and dies after maxAttempts", async () => {
  const retried = builderScenario({ failures: 1 });
  const first = await runInScope(
    { execution },
    () => retried.jobs.enqueue(retried.SendReminder, { invoiceId: "inv-2", note: "" }),
  );
  await assert.rejects(() => retried.jobs.runDue(), /mail server down/);
  assert.equal(await retried.jobs.runDue(), 0, "not due before its backoff of one minute");
  retried.clock.advance(59_999);
  assert.equal(await retried.jobs.runDue(), 0);
  retried.clock.advance(1);
  assert.equal(await retried.jobs.runDue(), 1);
  assert.deepEqual(retried.sent, [{ invoiceId: "inv-2", actor: "ada", attempt: 2 }]);
  assert.equal((await retried.jobs.find(first.id))?.attempts, 2);
  assert.equal(retried.reported.length, 1, "the failed attempt went to the error reporter");

  const dying = builderScenario({ failures: 5, maxAttempts: 2 });
  const second = await runInScope(
    { execution },
    () => dying.jobs.enqueue(dying.SendReminder, { invoiceId: "inv-3", note: "" }),
  );
  await assert.rejects(() => dying.jobs.runDue());
  dying.clock.advance(60_000);
  await assert.rejects(() => dying.jobs.runDue());
  dying.clock.advance(3_600_000);
  assert.equal(await dying.jobs.runDue(), 0, "a dead job is not run again");
  assert.equal((await dying.jobs.find(second.id))?.status, "dead");
});

Deno.test("a builder-declared job and a decorated one have the same settings, queue and worker", () => {
  @Background({ timeout: "30m", lease: "1m", maxAttempts: 4 })
  class Decorated {
    static readonly jobName = "ledger.close-day";
    run(_payload: { day: string }): Promise<void> {
      return Promise.resolve();
    }
  }
  class Built {
    static readonly jobName = "ledger.close-month";
    run(_payload: { month: string }): Promise<void> {
      return Promise.resolve();
    }
  }
  const app = composeApplication({
    modules: [
      defineModule("ledger", (builder) =>
        builder
          .declare(Decorated)
          .backgroundJob(Built, { timeout: "30m", lease: "1m", maxAttempts: 4 })),
    ],
    clock: new TestClock("2026-06-01T08:00:00Z"),
    plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }) },
  });
  const { backoff: decoratedBackoff, ...decorated } = jobSettingsOf(Decorated);
  const { backoff: builtBackoff, ...built } = jobSettingsOf(Built);
  assert.deepEqual(built, { ...decorated, name: "ledger.close-month" });
  assert.deepEqual(built, {
    name: "ledger.close-month",
    queue: "ledger",
    maxAttempts: 4,
    leaseMs: 60_000,
    timeoutMs: 1_800_000,
  });
  assert.deepEqual(
    [1, 2, 3, 20].map(builtBackoff),
    [1, 2, 3, 20].map(decoratedBackoff),
    "the same default backoff",
  );
  assert.deepEqual((app.backgroundJobs as BackgroundJobsApi).worker.queues, ["ledger"]);
});

Deno.test("builder.backgroundJob refuses what @Background refuses, a duplicate name and missing deps", () => {
  class Job {
    static readonly jobName = "ops.sweep";
    run(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () => defineModule("ops", (b) => void b.backgroundJob(Job, { maxAttempts: 0 })),
    { message: "builder.backgroundJob(Job) maxAttempts must be an integer from 1, got 0" },
  );
  assert.throws(
    () => defineModule("ops", (b) => void b.backgroundJob(Job, { lease: "500ms" })),
    { message: "builder.backgroundJob(Job) lease must be at least 1s, got 500 ms" },
  );
  assert.throws(
    () => defineModule("ops", (b) => void b.backgroundJob(Job, { timeout: "soon" as never })),
    /Invalid duration 'soon'/,
  );
  class BadName {
    static readonly jobName = "Sweep";
    run(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () => defineModule("ops", (b) => void b.backgroundJob(BadName)),
    /Background job 'BadName' needs static readonly jobName = '<context>.<job-name>' \(kebab-case\), got "Sweep"/,
  );
  class SameName {
    static readonly jobName = "ops.sweep";
    run(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () => defineModule("ops", (b) => void b.backgroundJob(Job).backgroundJob(SameName)),
    { message: "Background job name 'ops.sweep' is declared twice: 'Job' and 'SameName'" },
  );
  assert.throws(
    () => defineModule("ops", (b) => void b.backgroundJob(Job)),
    /class 'Job' is declared as a background-job twice/,
    "a class is declared once, whichever module builds it",
  );
  class NeedsBus {
    static readonly jobName = "ops.send";
    constructor(readonly commands: CommandBus, readonly clock: Clock) {}
    run(): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      defineModule("ops", (b) => void b.backgroundJob(NeedsBus, { deps: [CommandBus] as never })),
    {
      message:
        "builder.backgroundJob(NeedsBus) needs deps: the tokens of its 2 constructor parameter(s), in order",
    },
  );
});

Deno.test("builder.backgroundJob's compile-time rules: a job class, deps of its constructor's types, a typed payload", () => {
  class NeedsBus {
    static readonly jobName = "types.send";
    constructor(readonly commands: CommandBus) {}
    run(_payload: { to: string }): Promise<void> {
      return Promise.resolve();
    }
  }
  class NoJobName {
    run(): Promise<void> {
      return Promise.resolve();
    }
  }
  const rules = (builder: ModuleBuilder) => {
    // @ts-expect-error a class without static jobName is not a background job
    builder.backgroundJob(NoJobName);
    // @ts-expect-error a dependency token of another type than the constructor's parameter
    builder.backgroundJob(NeedsBus, { deps: [JobQueue] });
    // @ts-expect-error an option @Background does not take
    builder.backgroundJob(NeedsBus, { retries: 3, deps: [CommandBus] });
    builder.backgroundJob(NeedsBus, { maxAttempts: 2, deps: [CommandBus] });
  };
  const enqueue = (queue: JobQueue) => {
    // @ts-expect-error the payload is what run takes
    void queue.enqueue(NeedsBus, { to: 1 });
    // @ts-expect-error a payload field run does not take
    void queue.enqueue(NeedsBus, { to: "ada", cc: "bob" });
    void queue.enqueue(NeedsBus, { to: "ada" });
  };
  // Only compiled: the rules are in the types.
  assert.equal(typeof rules, "function");
  assert.equal(typeof enqueue, "function");
});
