import assert from "node:assert/strict";
import { turns } from "../test_support/turn.ts";
import { until } from "../test_support/until.ts";
import {
  accessPolicy,
  type Actor,
  AuthorizedCommand,
  type BackgroundJobExecution,
  CommandBus,
  composeApplication,
  ConceptError,
  defineModule,
  definePermissions,
  type ErrorReporter,
  type ExecutionContext,
  Handles,
  isRefusal,
  JobQueue,
  Requires,
  runInScope,
  systemActor,
  userActor,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import {
  Background,
  type BackgroundJobsApi,
  InMemoryJobStore,
  JobInterruptedError,
  jobsPlugin,
  JobTimeoutError,
  WorkerStoppedError,
} from "./mod.ts";

const permissions = definePermissions("scheduling", {
  "appointment.cancel": { description: "Cancel an appointment" },
  "calendar.clear": { description: "Clear a calendar" },
});

interface ClearCalendarPayload {
  calendarId: string;
  appointmentIds: string[];
  reason: string;
}

/** What the scenario's handlers and jobs saw. */
class World {
  cancelled: { id: string; by: string }[] = [];
  ended = new Set<string>();
  failOnce = new Set<string>();
  contexts: ExecutionContext[] = [];
  progress: { done: number; total?: number }[] = [];
  reported: unknown[] = [];
  release: (() => void) | undefined;
  signal: AbortSignal | undefined;
}

function scenario(options: { start?: boolean; concurrency?: number } = {}) {
  const world = new World();

  @Requires(permissions["appointment.cancel"], {
    resource: (c: CancelAppointment) => ({ type: "appointment", id: c.appointmentId }),
  })
  class CancelAppointment extends AuthorizedCommand<void> {
    constructor(actor: Actor, readonly appointmentId: string, readonly reason: string) {
      super(actor);
    }
  }

  @Handles(CancelAppointment)
  class CancelAppointmentHandler {
    handle(command: CancelAppointment): Promise<void> {
      if (world.ended.has(command.appointmentId)) {
        throw ConceptError.refusal("APPOINTMENT_ENDED", "The appointment has ended");
      }
      if (world.failOnce.delete(command.appointmentId)) throw new Error("database hiccup");
      world.cancelled.push({ id: command.appointmentId, by: command.actor.id });
      return Promise.resolve();
    }
  }

  @Background({ timeout: "30m", lease: "1m", maxAttempts: 3 })
  class ClearCalendar {
    static readonly jobName = "scheduling.clear-calendar";
    constructor(private readonly commands: CommandBus) {}
    async run(payload: ClearCalendarPayload, execution: BackgroundJobExecution): Promise<void> {
      const { currentScope } = await import("@kit/kernel");
      world.contexts.push(currentScope()!.execution);
      const start = typeof execution.checkpoint === "object" && execution.checkpoint !== null &&
          typeof (execution.checkpoint as { next?: unknown }).next === "number"
        ? (execution.checkpoint as { next: number }).next
        : 0;
      const total = payload.appointmentIds.length;
      for (let i = start; i < total; i++) {
        try {
          await this.commands.execute(
            new CancelAppointment(execution.actor, payload.appointmentIds[i]!, payload.reason),
          );
        } catch (error) {
          if (!isRefusal(error, "APPOINTMENT_ENDED")) throw error;
        }
        await execution.reportProgress({ done: i + 1, total });
        world.progress.push({ done: i + 1, total });
        await execution.saveCheckpoint({ next: i + 1 });
      }
    }
  }

  @Background({ lease: "3s", timeout: "10s", maxAttempts: 2 })
  class WaitForRelease {
    static readonly jobName = "scheduling.wait-for-release";
    run(_payload: { label: string }, execution: BackgroundJobExecution): Promise<void> {
      world.signal = execution.signal;
      return new Promise((resolve, reject) => {
        world.release = resolve;
        execution.signal.addEventListener("abort", () => reject(execution.signal.reason));
      });
    }
  }

  @Background({ lease: "3s", maxAttempts: 2 })
  class IgnoreSignal {
    static readonly jobName = "scheduling.ignore-signal";
    run(_payload: Record<string, never>, execution: BackgroundJobExecution): Promise<void> {
      world.signal = execution.signal;
      return new Promise((resolve) => {
        world.release = resolve;
      });
    }
  }

  @Requires(permissions["calendar.clear"], {
    resource: (c: RequestClearance) => ({ type: "calendar", id: c.calendarId }),
  })
  class RequestClearance extends AuthorizedCommand<{ id: string }> {
    constructor(
      actor: Actor,
      readonly calendarId: string,
      readonly appointmentIds: string[],
      readonly fail = false,
    ) {
      super(actor);
    }
  }

  @Handles(RequestClearance)
  class RequestClearanceHandler {
    constructor(private readonly jobs: JobQueue) {}
    async handle(command: RequestClearance): Promise<{ id: string }> {
      const { id } = await this.jobs.enqueue(ClearCalendar, {
        calendarId: command.calendarId,
        appointmentIds: command.appointmentIds,
        reason: "practice closed",
      }, { subject: command.calendarId });
      if (command.fail) throw ConceptError.refusal("UNKNOWN_CALENDAR", "No such calendar");
      return { id };
    }
  }

  const clock = new TestClock("2026-06-01T08:00:00Z");
  const store = new InMemoryJobStore();
  const reporter: ErrorReporter = { report: (error) => void world.reported.push(error) };
  const app = composeApplication({
    modules: [
      defineModule("scheduling", {
        declarations: [
          CancelAppointment,
          CancelAppointmentHandler,
          RequestClearance,
          RequestClearanceHandler,
          ClearCalendar,
          WaitForRelease,
          IgnoreSignal,
        ],
        dependencies: new Map<
          abstract new (...args: never[]) => unknown,
          readonly (typeof CommandBus | typeof JobQueue)[]
        >([
          [ClearCalendar, [CommandBus]],
          [RequestClearanceHandler, [JobQueue]],
        ]),
      }),
    ],
    clock,
    errorReporter: reporter,
    accessPolicy: accessPolicy({
      grants: {
        practitioner: [permissions["calendar.clear"], permissions["appointment.cancel"]],
        assistant: [permissions["calendar.clear"]],
      },
    }),
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        start: options.start ?? false,
        concurrency: options.concurrency ?? 2,
      }),
    },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi<InMemoryJobStore>;
  return {
    app,
    jobs,
    clock,
    store,
    world,
    ClearCalendar,
    WaitForRelease,
    IgnoreSignal,
    RequestClearance,
  };
}

const practitioner = userActor("dr-who", { roles: ["practitioner"], tenants: ["clinic-1"] });

/**
 * Moves the clock by `ms` in steps, letting queued callbacks run after each (heartbeats reach the
 * store as they would on a clock that moves by itself).
 */
async function advance(clock: TestClock, ms: number, step = 500): Promise<void> {
  for (let moved = 0; moved < ms; moved += step) {
    clock.advance(Math.min(step, ms - moved));
    await turns(5);
  }
}

Deno.test("A job enqueued by a command exists only once the command commits", async () => {
  const { app, jobs, RequestClearance } = scenario();
  const { id } = await app.commands.execute(new RequestClearance(practitioner, "cal-1", ["a1"]));
  assert.equal((await jobs.find(id))?.status, "waiting");
  assert.equal((await jobs.find(id))?.subject, "cal-1");
  await assert.rejects(
    () => app.commands.execute(new RequestClearance(practitioner, "cal-2", ["a2"], true)),
    /No such calendar/,
  );
  assert.deepEqual((await jobs.store.list()).map((j) => j.subject), ["cal-1"]);
});

Deno.test("runDue runs the job as the enqueuing actor, through the bus, with its context", async () => {
  const { app, jobs, world, RequestClearance } = scenario();
  const { id } = await runInScope(
    {
      execution: {
        origin: "http",
        actor: practitioner,
        tenantId: "clinic-1",
        correlationId: "req-42",
      },
    },
    () => app.commands.execute(new RequestClearance(practitioner, "cal-1", ["a1", "a2", "a3"])),
  );
  assert.equal(await jobs.runDue(), 1);
  assert.deepEqual(world.cancelled, [
    { id: "a1", by: "dr-who" },
    { id: "a2", by: "dr-who" },
    { id: "a3", by: "dr-who" },
  ]);
  assert.deepEqual(world.progress.map((p) => p.done), [1, 2, 3]);
  const [context] = world.contexts;
  assert.equal(context?.origin, "queue");
  assert.equal(context?.actor.id, "dr-who");
  assert.deepEqual(context?.actor.roles, ["practitioner"]);
  assert.equal(context?.tenantId, "clinic-1");
  assert.equal(context?.correlationId, "req-42");
  assert.equal(context?.causationId, id);
  assert.equal(context?.deadline?.toISOString(), "2026-06-01T08:30:00.000Z");
  const found = await runInScope(
    {
      execution: { origin: "http", actor: practitioner, tenantId: "clinic-1", correlationId: "x" },
    },
    () => jobs.find(id),
  );
  assert.deepEqual(found, {
    id,
    name: "scheduling.clear-calendar",
    status: "succeeded",
    attempts: 1,
    progress: { done: 3, total: 3 },
    runAt: new Date("2026-06-01T08:00:00Z"),
    tenantId: "clinic-1",
    subject: "cal-1",
  });
  const otherTenant = await runInScope(
    {
      execution: { origin: "http", actor: practitioner, tenantId: "clinic-2", correlationId: "y" },
    },
    () => jobs.find(id),
  );
  assert.equal(otherTenant, undefined);
  // A user's work that names no tenant reaches no tenant's jobs: TENANT_REQUIRED, as a
  // repository answers it.
  const noTenant = { origin: "http", actor: practitioner, correlationId: "z" };
  const required = (error: unknown) => isRefusal(error, "TENANT_REQUIRED");
  await assert.rejects(() => runInScope({ execution: noTenant }, () => jobs.find(id)), required);
  await assert.rejects(() => runInScope({ execution: noTenant }, () => jobs.cancel(id)), required);
  // The system actor's work without a tenant reaches every tenant's.
  const system = { origin: "schedule", actor: systemActor, correlationId: "s" };
  assert.equal((await runInScope({ execution: system }, () => jobs.find(id)))?.id, id);
});

Deno.test("Permissions hold in a job: an actor lacking one fails the attempt with FORBIDDEN", async () => {
  const { app, jobs, world, RequestClearance } = scenario();
  const assistant = userActor("assistant", { roles: ["assistant"] });
  const { id } = await app.commands.execute(new RequestClearance(assistant, "cal-1", ["a1"]));
  await assert.rejects(() => jobs.runDue(), (error: unknown) => isRefusal(error, "FORBIDDEN"));
  assert.deepEqual(world.cancelled, []);
  const job = await jobs.find(id);
  assert.equal(job?.status, "waiting");
  assert.equal(job?.lastErrorCode, "FORBIDDEN");
  assert.deepEqual(world.reported, [], "a domain error is not an unexpected error");
});

Deno.test("A retried job resumes from its checkpoint and treats an ended appointment as done", async () => {
  const { app, jobs, world, clock, RequestClearance } = scenario();
  world.ended.add("a2");
  world.failOnce.add("a3");
  const { id } = await app.commands.execute(
    new RequestClearance(practitioner, "cal-1", ["a1", "a2", "a3", "a4"]),
  );
  await assert.rejects(() => jobs.runDue(), /database hiccup/);
  assert.deepEqual(world.cancelled.map((c) => c.id), ["a1"]);
  assert.equal((await jobs.find(id))?.lastErrorCode, "UNEXPECTED");
  assert.equal(world.reported.length, 1, "an unexpected error goes to the error reporter");
  assert.equal(await jobs.runDue(), 0, "not due before the backoff");
  clock.advance(1_000);
  assert.equal(await jobs.runDue(), 1);
  assert.deepEqual(world.cancelled.map((c) => c.id), ["a1", "a3", "a4"]);
  const job = await jobs.find(id);
  assert.equal(job?.status, "succeeded");
  assert.equal(job?.attempts, 2);
});

Deno.test("A job dies after maxAttempts and an operator revives it", async () => {
  const { app, jobs, world, clock, RequestClearance } = scenario();
  for (let i = 0; i < 3; i++) world.failOnce.add("a1");
  const { id } = await app.commands.execute(new RequestClearance(practitioner, "cal-1", ["a1"]));
  world.failOnce = new Set(["a1"]);
  await assert.rejects(() => jobs.runDue());
  world.failOnce.add("a1");
  clock.advance(1_000);
  await assert.rejects(() => jobs.runDue());
  world.failOnce.add("a1");
  clock.advance(2_000);
  await assert.rejects(() => jobs.runDue());
  assert.equal((await jobs.find(id))?.status, "dead");
  clock.advance(3_600_000);
  assert.equal(await jobs.runDue(), 0);
  assert.ok(await jobs.retryDead(id));
  assert.equal(await jobs.runDue(), 1);
  assert.equal((await jobs.find(id))?.status, "succeeded");
});

Deno.test("A worker that does not know a job name fails it with UNKNOWN_BACKGROUND_JOB", async () => {
  const { jobs, store } = scenario();
  await store.jobInsert({
    job: {
      id: "01900000-0000-7000-8000-00000000abcd",
      name: "scheduling.renamed-job",
      queue: "scheduling",
      payload: {},
      actor: practitioner,
      correlationId: "c",
      maxAttempts: 1,
      runAt: new Date("2026-06-01T08:00:00Z"),
      createdAt: new Date("2026-06-01T08:00:00Z"),
    },
  });
  assert.equal(await jobs.runDue(), 1);
  const job = await jobs.find("01900000-0000-7000-8000-00000000abcd");
  assert.equal(job?.status, "dead");
  assert.equal(job?.lastErrorCode, "UNKNOWN_BACKGROUND_JOB");
});

Deno.test("The timeout aborts the signal and counts a failed attempt", async () => {
  const { app, jobs, world, clock, WaitForRelease } = scenario({ start: true });
  await app.start();
  const { id } = await jobs.enqueue(WaitForRelease, { label: "slow" });
  await until(() => world.release !== undefined, "the attempt to start");
  await advance(clock, 9_500);
  assert.equal(world.signal?.aborted, false, "heartbeats keep the 3 s lease");
  await advance(clock, 500);
  assert.equal(world.signal?.aborted, true);
  assert.ok(world.signal?.reason instanceof JobTimeoutError);
  await until(async_status(jobs, id, "waiting"), "the job to wait again");
  assert.equal((await jobs.find(id))?.lastErrorCode, "JOB_TIMED_OUT");
  await app.stop();
});

Deno.test("Cancelling a running job aborts its signal at the next heartbeat", async () => {
  const { app, jobs, world, clock, WaitForRelease } = scenario({ start: true });
  await app.start();
  const { id } = await jobs.enqueue(WaitForRelease, { label: "cancel me" });
  await until(() => world.release !== undefined, "the attempt to start");
  assert.ok(await jobs.cancel(id));
  assert.equal((await jobs.find(id))?.status, "cancelled");
  // The lease is 3 s: the next heartbeat comes a third of it after the start.
  await advance(clock, 999, 333);
  assert.equal(world.signal?.aborted, false, "not aborted before the heartbeat");
  clock.advance(1);
  await until(() => world.signal?.aborted === true, "the heartbeat to abort the signal");
  assert.ok(world.signal.reason instanceof JobInterruptedError);
  assert.equal(world.signal.reason.name, "JobInterruptedError", "not a lost lease or a timeout");
  assert.equal(world.signal.reason.jobId, id);
  await app.stop();
  const job = await jobs.find(id);
  assert.equal(job?.status, "cancelled");
  assert.equal(job?.attempts, 1);
});

Deno.test("stop() waits for the grace period, 30 s by default, then aborts with WorkerStoppedError and gives the job back uncounted", async () => {
  const { app, jobs, world, clock, IgnoreSignal } = scenario({ start: true });
  await app.start();
  const { id } = await jobs.enqueue(IgnoreSignal, {});
  await until(() => world.release !== undefined, "the attempt to start");
  let stopped = false;
  const stopping = app.stop().then(() => (stopped = true));
  // Let stop() end the claim loops and start its grace period (in-memory store: no I/O).
  await turns(10);
  assert.equal(stopped, false);
  // Heartbeats keep the lease during the grace period.
  await advance(clock, 29_999);
  assert.equal(stopped, false);
  clock.advance(1);
  await stopping;
  assert.ok(
    world.signal?.reason instanceof WorkerStoppedError,
    "the job is told the worker stopped",
  );
  const job = await jobs.find(id);
  assert.equal(job?.status, "waiting");
  assert.equal(job?.attempts, 0);
});

Deno.test("enqueue refuses a payload of the wrong type and a Date at compile time, and bad options at run time", async () => {
  const { jobs, ClearCalendar } = scenario();
  const check = () => {
    // @ts-expect-error the payload misses appointmentIds and reason
    void jobs.enqueue(ClearCalendar, { calendarId: "c" });
    // @ts-expect-error a Date does not travel: send ISO text
    void jobs.enqueue(ClearCalendar, { calendarId: "c", appointmentIds: [], reason: new Date() });
  };
  void check;
  await assert.rejects(
    () =>
      jobs.enqueue(ClearCalendar, { calendarId: "c", appointmentIds: [], reason: "r" }, {
        delay: "1m",
        runAt: new Date(),
      }),
    { message: "Job 'scheduling.clear-calendar' takes delay or runAt, not both" },
  );
  class NotAJob {
    static readonly jobName = "x.y";
    run(): Promise<void> {
      return Promise.resolve();
    }
  }
  await assert.rejects(
    () => jobs.enqueue(NotAJob, undefined as never),
    { message: "'NotAJob' is not a background job: decorate it with @Background()" },
  );
});

Deno.test("@Background refuses a job without a proper jobName and bad settings", () => {
  assert.throws(() => {
    // @ts-expect-error a job class without static jobName does not compile either
    @Background()
    class NoName {
      run(): Promise<void> {
        return Promise.resolve();
      }
    }
    void NoName;
  }, /Background job 'NoName' needs static readonly jobName = '<context>.<job-name>'/);
  assert.throws(
    () => Background({ maxAttempts: 0 }),
    /maxAttempts must be an integer from 1, got 0/,
  );
  assert.throws(() => Background({ timeout: "soon" as never }), /Invalid duration 'soon'/);
});

function async_status(jobs: BackgroundJobsApi, id: string, status: string): () => boolean {
  let last: string | undefined;
  void (async function poll() {
    for (let i = 0; i < 400 && last !== status; i++) {
      last = (await jobs.find(id))?.status;
      await turns();
    }
  })();
  return () => last === status;
}
