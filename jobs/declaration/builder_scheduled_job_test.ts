import assert from "node:assert/strict";
import {
  type BackgroundJobExecution,
  CommandBus,
  composeApplication,
  defineModule,
  JobQueue,
} from "@kit/kernel";
import { scheduledJobDeclarations } from "@kit/kernel/internal";
import { TestClock } from "@kit/kernel/testing";
import type { ModuleBuilder } from "@kit/kernel/types";
import {
  type BackgroundJobsApi,
  InMemoryJobStore,
  jobsPlugin,
  Scheduled,
  type ScheduledTick,
} from "../mod.ts";
import { jobSettingsOf } from "./background.ts";

Deno.test("builder.scheduledJob declares a job the scheduler runs once per tick, as the system, with its dependencies", async () => {
  const ticks: string[] = [];
  class SendReminders {
    static readonly jobName = "notifications.send-reminders";
    constructor(private readonly commands: CommandBus) {}
    run(payload: ScheduledTick, execution: BackgroundJobExecution): Promise<void> {
      assert.equal(typeof this.commands.execute, "function", "its dependency was given");
      ticks.push(`${payload.tick} as ${execution.actor.id}`);
      return Promise.resolve();
    }
  }
  const clock = new TestClock("2026-01-01T00:02:00Z");
  const app = composeApplication({
    modules: [
      defineModule("notifications", (builder) => {
        builder.scheduledJob(SendReminders, { every: "5m", deps: [CommandBus] });
      }),
    ],
    clock,
    plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }) },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  assert.equal(await jobs.runDue(), 1);
  assert.equal(await jobs.runDue(), 0);
  clock.advance(3 * 60_000);
  assert.equal(await jobs.runDue(), 1);
  assert.deepEqual(ticks, [
    "2026-01-01T00:00:00.000Z as system",
    "2026-01-01T00:05:00.000Z as system",
  ]);
});

Deno.test("a builder-declared scheduled job has the settings of a decorated one", () => {
  @Scheduled({ every: "1h", maxAttempts: 2, timeout: "5m" })
  class Decorated {
    static readonly jobName = "ledger.hourly";
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  class Built {
    static readonly jobName = "ledger.hourly-too";
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  defineModule("ledger", (b) => {
    b.scheduledJob(Built, { every: "1h", maxAttempts: 2, timeout: "5m" });
  });
  assert.deepEqual(scheduledJobDeclarations.read(Built), scheduledJobDeclarations.read(Decorated));
  const { backoff: _a, ...decorated } = jobSettingsOf(Decorated);
  const { backoff: _b, ...built } = jobSettingsOf(Built);
  assert.deepEqual(built, { ...decorated, name: "ledger.hourly-too" });
});

Deno.test("builder.scheduledJob refuses what @Scheduled refuses, a duplicate job name and missing deps", () => {
  class Tick {
    static readonly jobName = "ops.tick";
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () => defineModule("ops", (b) => void b.scheduledJob(Tick, { every: "500ms" })),
    { message: "builder.scheduledJob(Tick) every must be at least 1s, got 500 ms" },
  );
  assert.throws(
    () => defineModule("ops", (b) => void b.scheduledJob(Tick, { every: "1m", maxAttempts: 0 })),
    { message: "builder.scheduledJob(Tick) maxAttempts must be an integer from 1, got 0" },
  );
  assert.equal(scheduledJobDeclarations.read(Tick), undefined, "nothing recorded when refused");
  class SameName {
    static readonly jobName = "ops.tick";
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () =>
      defineModule(
        "ops",
        (b) => void b.scheduledJob(Tick, { every: "1m" }).backgroundJob(SameName),
      ),
    { message: "Background job name 'ops.tick' is declared twice: 'Tick' and 'SameName'" },
  );
  class NeedsBus {
    static readonly jobName = "ops.send";
    constructor(readonly commands: CommandBus) {}
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  assert.throws(
    () => defineModule("ops", (b) => void b.scheduledJob(NeedsBus, { every: "1m" })),
    {
      message:
        "builder.scheduledJob(NeedsBus) needs deps: the tokens of its 1 constructor parameter(s), in order",
    },
  );
});

Deno.test("builder.scheduledJob's compile-time rules: run takes the tick, an interval, deps of its constructor's types", () => {
  class NeedsBus {
    static readonly jobName = "types.tick";
    constructor(readonly commands: CommandBus) {}
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  class TakesAPayload {
    static readonly jobName = "types.payload";
    run(_payload: { invoiceId: string }): Promise<void> {
      return Promise.resolve();
    }
  }
  const rules = (builder: ModuleBuilder) => {
    // @ts-expect-error run must take the tick, not a payload of its own
    builder.scheduledJob(TakesAPayload, { every: "1m" });
    // @ts-expect-error every is required
    builder.scheduledJob(NeedsBus, { deps: [CommandBus] });
    // @ts-expect-error a dependency token of another type than the constructor's parameter
    builder.scheduledJob(NeedsBus, { every: "1m", deps: [JobQueue] });
    // @ts-expect-error an interval that is not a duration
    builder.scheduledJob(NeedsBus, { every: "hourly", deps: [CommandBus] });
    builder.scheduledJob(NeedsBus, { every: "1m", deps: [CommandBus] });
  };
  // Only compiled: the rules are in the types.
  assert.equal(typeof rules, "function");
});
