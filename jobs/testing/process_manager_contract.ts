import assert from "node:assert/strict";
import {
  composeApplication,
  currentScope,
  type ErrorReporter,
  eventsPlugin,
  type ExecutionContext,
  InMemoryTransactions,
  type IntegrationEvent,
  type IntegrationEventDefinition,
  runInScope,
  systemActor,
  type TransactionManager,
} from "@kit/kernel";
import {
  endProcessInstance,
  processManagerDeclarations,
  processRuntimeOf,
  type UnitOfWork,
} from "@kit/kernel/internal";
import type { EventsApi, Outbox } from "@kit/kernel/outbox";
import {
  ProcessDeadlines,
  type ProcessInstance,
  type ProcessInstanceRef,
  type ProcessReach,
  ProcessStore,
  type ScheduledDeadline,
} from "@kit/kernel/process";
import { TestClock } from "@kit/kernel/testing";
import { type BackgroundJobsApi, jobsPlugin } from "../jobs_plugin.ts";
import type { JobStore } from "../store/job_store.ts";
import {
  Booked,
  Cancelled,
  confirmationModule,
  ConfirmationProcess,
  Confirmed,
  Effects,
  Noted,
} from "./_confirmation_process.ts";

/** What the process-manager contract runs on, opened afresh for each case. */
export interface OpenedProcessStore {
  /** The empty process store. */
  readonly store: ProcessStore;
  /** The job store its deadlines are enqueued in. */
  readonly jobs: JobStore;
  /** The outbox its events come through. */
  readonly outbox: Outbox;
  /** The units of work all of them share (default `InMemoryTransactions`). */
  readonly transactions?: TransactionManager;
  /** Closes them. */
  close(): Promise<void>;
}

/** How the contract opens the stores for each case. */
export interface ProcessStoreUnderTest {
  /** A name for the test titles (`InMemoryProcessStore`). */
  readonly name: string;
  /** Skips every case (a store whose service is not configured). */
  readonly ignore?: boolean;
  /** Opens empty stores. */
  open(): Promise<OpenedProcessStore>;
}

const hour = 3_600_000;
const t0 = new Date("2026-05-01T08:00:00.000Z");
const startsAt = new Date(t0.getTime() + 48 * hour).toISOString();

/** A process store that fails its next saves, as a transaction that fails after the work ran. */
class FlakyProcessStore implements ProcessStore {
  failSaves = 0;
  constructor(readonly inner: ProcessStore) {}
  instanceLoad: ProcessStore["instanceLoad"] = (params) => this.inner.instanceLoad(params);
  instanceSave: ProcessStore["instanceSave"] = (params) => {
    if (this.failSaves > 0) {
      this.failSaves--;
      return Promise.reject(new Error("the connection was lost before COMMIT"));
    }
    return this.inner.instanceSave(params);
  };
  messageMark: ProcessStore["messageMark"] = (params) => this.inner.messageMark(params);
  messageTakeParked: ProcessStore["messageTakeParked"] = (params) =>
    this.inner.messageTakeParked(params);
  messageList: ProcessStore["messageList"] = (params) => this.inner.messageList(params);
  instancePurgeCompleted: ProcessStore["instancePurgeCompleted"] = (params) =>
    this.inner.instancePurgeCompleted(params);
  instanceCount: ProcessStore["instanceCount"] = (params) => this.inner.instanceCount(params);
  instanceList: ProcessStore["instanceList"] = (params) => this.inner.instanceList(params);
  instanceRead: ProcessStore["instanceRead"] = (params) => this.inner.instanceRead(params);
  instanceEnd: ProcessStore["instanceEnd"] = (params) => this.inner.instanceEnd(params);
}

/** One case's application over the opened stores. */
class World {
  readonly clock = new TestClock(t0);
  readonly effects = { done: [] as string[] };
  readonly reported: unknown[] = [];
  readonly store: FlakyProcessStore;
  readonly events: EventsApi;
  readonly jobs: BackgroundJobsApi;
  readonly transactions: TransactionManager;
  readonly #container: ReturnType<typeof composeApplication>["container"];

  constructor(opened: OpenedProcessStore) {
    this.store = new FlakyProcessStore(opened.store);
    this.transactions = opened.transactions ?? new InMemoryTransactions();
    const errorReporter: ErrorReporter = { report: (error) => void this.reported.push(error) };
    const app = composeApplication({
      modules: [confirmationModule()],
      clock: this.clock,
      transactions: this.transactions,
      errorReporter,
      providers: [
        { provide: ProcessStore, provider: { useValue: this.store } },
        { provide: Effects, provider: { useValue: this.effects } },
      ],
      plugins: {
        events: eventsPlugin({
          outbox: opened.outbox,
          start: false,
          metrics: false,
          concurrency: 8,
          handlerConcurrency: 8,
          batchSize: 1,
          retryDelay: () => 1_000,
        }),
        backgroundJobs: jobsPlugin({ store: opened.jobs, telemetry: { jobCounts: false } }),
      },
    });
    this.events = app.events;
    this.jobs = app.backgroundJobs;
    this.#container = app.container;
  }

  /** Publishes an event for the tenant, committed. */
  async publish<P>(tenantId: string, event: IntegrationEventDefinition<P>, payload: P) {
    return await this.#inUnit(tenantId, () => this.events.publisher.publish(event, payload));
  }

  /** Delivers the due events to the process. */
  deliver(): Promise<number> {
    return this.events.relay.deliverDue();
  }

  /** The instance, committed. */
  instance(tenantId: string, key: string): Promise<ProcessInstance | undefined> {
    return this.transactions.run((unit) =>
      this.store.instanceLoad({ process: "appointments.confirmation", tenantId, key, unit })
    );
  }

  /** Runs a deadline again as its job would, in a unit of its own (a job run again). */
  runDeadline(tenantId: string, deadline: ScheduledDeadline): Promise<void> {
    const declaration = processManagerDeclarations.read(ConfirmationProcess)!;
    const runtime = processRuntimeOf(this.#container, ConfirmationProcess, declaration);
    return this.#inUnit(tenantId, () => runtime.handleDeadline(deadline));
  }

  /** The deadline job's payload of a pending deadline. */
  async pending(tenantId: string, key: string, name: string): Promise<ScheduledDeadline> {
    const instance = await this.instance(tenantId, key);
    const pending = instance?.deadlines[name];
    assert.ok(pending, `deadline '${name}' of '${key}' is pending`);
    return {
      process: "appointments.confirmation",
      key,
      name,
      token: pending.token,
      at: pending.at,
    };
  }

  /** Delivers the event again, as the relay does (a unit of its own, the event's tenant). */
  redeliver(tenantId: string, event: IntegrationEvent): Promise<void> {
    const declaration = processManagerDeclarations.read(ConfirmationProcess)!;
    const runtime = processRuntimeOf(this.#container, ConfirmationProcess, declaration);
    return this.#inUnit(tenantId, () => runtime.handleEvent(event));
  }

  /** Ends the instance as the operator, with the reach given, committed. */
  end(tenantId: string, key: string, reach: ProcessReach): Promise<ProcessInstance | undefined> {
    const deadlines = this.#container.resolve(ProcessDeadlines);
    return this.#inUnit("", () =>
      endProcessInstance({
        store: this.store,
        deadlines,
        unit: currentUnit(),
        ...ref(tenantId, key),
        reach,
        by: "operator-1",
        now: this.clock.now(),
      }));
  }

  /** Moves the clock to the instant and runs the jobs then due. */
  async runJobsAt(at: Date): Promise<number> {
    this.clock.set(at);
    return await this.jobs.runDue();
  }

  #inUnit<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const execution: ExecutionContext = {
      origin: "test",
      actor: systemActor,
      correlationId: crypto.randomUUID(),
      ...(tenantId === "" ? {} : { tenantId }),
    };
    return this.transactions.run((unitOfWork) => runInScope({ execution, unitOfWork }, work));
  }
}

/** The unit of work of the scope under way. */
function currentUnit(): UnitOfWork {
  const unit = currentScope()?.unitOfWork;
  assert.ok(unit, "a unit of work is under way");
  return unit;
}

const ref = (tenantId: string, key: string): ProcessInstanceRef => ({
  process: "appointments.confirmation",
  tenantId,
  key,
});

/**
 * The conformance suite every process store passes, driven through an application (the outbox
 * and its relay, the job store and its worker) with the test clock: transitions, concurrent
 * events on one instance, duplicates, deadlines after completion or cancellation, tenant
 * isolation, a deadline job run again after a failure or a killed worker, and the operators'
 * reads (counts, pages, one instance, by the tenants reached) and end (archived, its deadline
 * jobs cancelled, in its history).
 *
 * @example
 * ```ts ignore
 * processManagerContract({
 *   name: "InMemoryProcessStore",
 *   open: () => Promise.resolve({
 *     store: new InMemoryProcessStore(), jobs: new InMemoryJobStore(), outbox: new InMemoryOutbox(),
 *     close: () => Promise.resolve(),
 *   }),
 * });
 * ```
 */
export function processManagerContract(subject: ProcessStoreUnderTest): void {
  const test = (name: string, fn: (world: World) => Promise<void>) =>
    Deno.test({
      name: `${subject.name} (processManagerContract): ${name}`,
      ignore: subject.ignore ?? false,
      sanitizeOps: false,
      sanitizeResources: false,
      fn: async () => {
        const opened = await subject.open();
        try {
          await fn(new World(opened));
        } finally {
          await opened.close();
        }
      },
    });

  test("an event starts an instance whose deadlines run as jobs at their time", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    assert.equal(await w.deliver(), 1);
    const started = await w.instance("t1", "a1");
    assert.equal(started?.status, "active");
    assert.equal(started?.version, 1);
    assert.deepEqual(Object.keys(started?.deadlines ?? {}).sort(), ["release", "remind"]);
    const remindJob = started!.deadlines.remind!.jobId!;
    const job = await w.jobs.find(remindJob);
    assert.equal(job?.name, "appointments.confirmation-deadline");
    assert.equal(job?.status, "waiting");
    assert.equal(job?.tenantId, "t1");
    assert.equal(job?.subject, "appointments.confirmation:a1");

    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt) - 25 * hour)), 0, "not due yet");
    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt) - 24 * hour)), 1);
    const reminded = await w.instance("t1", "a1");
    assert.deepEqual((reminded?.state as { log: string[] }).log, ["booked", "reminded"]);
    assert.deepEqual(Object.keys(reminded?.deadlines ?? {}), ["release"]);
    assert.deepEqual(w.effects.done, ["t1: booked a1", 't1: reminded a1 by {"channel":"sms"}']);

    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt) - 2 * hour)), 1);
    const released = await w.instance("t1", "a1");
    assert.equal(released?.status, "completed", "completion archives the instance");
    assert.deepEqual(released?.deadlines, {});
    const history = await w.store.messageList(ref("t1", "a1"));
    assert.deepEqual(history.map((m) => `${m.kind} ${m.name}`), [
      "event appointments.appointment.booked",
      "deadline remind",
      "deadline release",
    ]);
  });

  test("the store refuses a save at a stale version (CONCURRENT_UPDATE)", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    const loaded = (await w.instance("t1", "a1"))!;
    await w.transactions.run((unit) => w.store.instanceSave({ instance: loaded, unit }));
    await assert.rejects(
      w.transactions.run((unit) => w.store.instanceSave({ instance: loaded, unit })),
      (error: { code?: string }) => error.code === "CONCURRENT_UPDATE",
    );
    await assert.rejects(
      w.transactions.run((unit) =>
        w.store.instanceSave({ instance: { ...loaded, version: 0 }, unit })
      ),
      (error: { code?: string }) => error.code === "CONCURRENT_UPDATE",
      "a second start of one key conflicts",
    );
    assert.equal((await w.instance("t1", "a1"))?.version, 2);
  });

  test("concurrent events on one instance: no transition is lost", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    const notes = Array.from({ length: 8 }, (_, i) => `note ${i}`);
    for (const note of notes) await w.publish("t1", Noted, { appointmentId: "a1", note });
    // Eight lanes deliver the eight events at once; retries (if a store conflicts) come due later.
    let delivered = await w.deliver();
    for (let round = 0; delivered < notes.length && round < 10; round++) {
      w.clock.advance(1_000);
      delivered += await w.deliver();
    }
    assert.equal(delivered, notes.length);
    const instance = await w.instance("t1", "a1");
    assert.deepEqual([...(instance?.state as { notes: string[] }).notes].sort(), notes);
    assert.equal(instance?.version, 1 + notes.length);
  });

  test("a duplicate event is handled once", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    const noted = await w.publish("t1", Noted, { appointmentId: "a1", note: "once" });
    await w.deliver();
    // The outbox delivers at least once: the same event again (a relay that lost its lease).
    await w.redeliver("t1", noted);
    await w.redeliver("t1", noted);
    const instance = await w.instance("t1", "a1");
    assert.deepEqual((instance?.state as { notes: string[] }).notes, ["once"]);
    assert.equal(instance?.version, 2);
    const history = await w.store.messageList(ref("t1", "a1"));
    assert.equal(history.filter((m) => m.messageId === noted.id).length, 1);
  });

  test("a deadline after completion is a no-op", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    const remind = await w.pending("t1", "a1", "remind");
    const remindJob = (await w.instance("t1", "a1"))!.deadlines.remind!.jobId!;
    await w.publish("t1", Cancelled, { appointmentId: "a1" });
    await w.deliver();
    const completed = await w.instance("t1", "a1");
    assert.equal(completed?.status, "completed");
    assert.equal((await w.jobs.find(remindJob))?.status, "cancelled");
    // Its job was cancelled with the completion; and were it to run (it was claimed already),
    // the guard at delivery makes it a no-op.
    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt))), 0, "no deadline job runs");
    await w.runDeadline("t1", remind);
    const after = await w.instance("t1", "a1");
    assert.equal(after?.version, completed?.version);
    assert.deepEqual(after?.state, completed?.state);
    assert.deepEqual(w.effects.done, ["t1: booked a1", "t1: cancelled a1"]);
  });

  test("a deadline cancelled by a later event never fires", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    const release = await w.pending("t1", "a1", "release");
    const releaseJob = (await w.instance("t1", "a1"))!.deadlines.release!.jobId!;
    await w.publish("t1", Confirmed, { appointmentId: "a1" });
    await w.deliver();
    assert.equal((await w.jobs.find(releaseJob))?.status, "cancelled");
    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt))), 1, "the reminder only");
    await w.runDeadline("t1", release);
    const instance = await w.instance("t1", "a1");
    assert.equal(instance?.status, "active");
    assert.deepEqual((instance?.state as { log: string[] }).log, [
      "booked",
      "confirmed",
      "reminded",
    ]);
    assert.deepEqual(instance?.deadlines, {});
    assert.ok(!w.effects.done.some((line) => line.includes("released")));
  });

  test("a second starting event is a no-op; a deadline of a stale token changes nothing", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    const first = await w.pending("t1", "a1", "remind");
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    assert.deepEqual(await w.pending("t1", "a1", "remind"), first, "a second start is a no-op");
    await w.runDeadline("t1", { ...first, token: "not-the-pending-one" });
    assert.deepEqual(
      (await w.instance("t1", "a1"))?.deadlines.remind?.token,
      first.token,
      "a stale token changes nothing",
    );
  });

  test("instances are per tenant: one key in two tenants never meets", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    await w.publish("t2", Confirmed, { appointmentId: "a1" });
    assert.equal(await w.deliver(), 1, "parked: t2 has no instance a1");
    assert.equal(await w.instance("t2", "a1"), undefined);
    const t1 = await w.instance("t1", "a1");
    assert.equal((t1?.state as { status: string }).status, "booked", "t1's a1 is not confirmed");
    assert.deepEqual(Object.keys(t1?.deadlines ?? {}).sort(), ["release", "remind"]);
    await w.publish("t2", Booked, { appointmentId: "a1", startsAt });
    assert.equal(await w.deliver(), 1);
    assert.equal(((await w.instance("t2", "a1"))?.state as { status: string }).status, "confirmed");
    assert.equal(((await w.instance("t1", "a1"))?.state as { status: string }).status, "booked");
    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt) - 2 * hour)), 3);
    assert.equal((await w.instance("t1", "a1"))?.status, "completed", "t1 released");
    assert.equal((await w.instance("t2", "a1"))?.status, "active", "t2 confirmed, kept");
    assert.deepEqual(
      w.effects.done.filter((line) => line.startsWith("t2")),
      ["t2: booked a1", "t2: confirmed a1", 't2: reminded a1 by {"channel":"sms"}'],
    );
    assert.equal(w.reported.length, 0, "nothing reported");
  });

  test("an event that arrives before its instance started is handled right after the start", async (w) => {
    await w.publish("t1", Noted, { appointmentId: "a1", note: "first" });
    await w.publish("t1", Confirmed, { appointmentId: "a1" });
    const early = await w.publish("t1", Noted, { appointmentId: "a1", note: "second" });
    assert.equal(await w.deliver(), 3);
    await w.redeliver("t1", early); // a parked event delivered again is still a duplicate
    assert.equal(await w.instance("t1", "a1"), undefined, "nothing starts without its start");
    assert.deepEqual((await w.store.messageList(ref("t1", "a1"))).map((m) => m.parked), [
      true,
      true,
      true,
    ]);
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    assert.equal(await w.deliver(), 1);
    const instance = await w.instance("t1", "a1");
    const state = instance?.state as { status: string; notes: string[] };
    assert.equal(state.status, "confirmed");
    assert.deepEqual([...state.notes].sort(), ["first", "second"]);
    assert.equal(instance?.version, 1, "the start and the parked events: one transition");
    assert.deepEqual(Object.keys(instance?.deadlines ?? {}), ["remind"], "release never asked");
    assert.ok((await w.store.messageList(ref("t1", "a1"))).every((m) => !m.parked));
    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt))), 1, "only the reminder runs");
  });

  test("completed instances are purged with their history; active ones stay", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.publish("t1", Booked, { appointmentId: "a2", startsAt });
    await w.deliver();
    await w.publish("t1", Cancelled, { appointmentId: "a1" });
    await w.deliver();
    const completedAt = (await w.instance("t1", "a1"))?.completedAt;
    assert.ok(completedAt instanceof Date);
    assert.equal(await w.store.instancePurgeCompleted({ before: completedAt }), 0, "not before");
    const later = new Date(completedAt.getTime() + 1);
    assert.equal(await w.store.instancePurgeCompleted({ before: later }), 1);
    assert.equal(await w.instance("t1", "a1"), undefined);
    assert.deepEqual(await w.store.messageList(ref("t1", "a1")), []);
    assert.equal((await w.instance("t1", "a2"))?.status, "active");
    assert.equal((await w.store.messageList(ref("t1", "a2"))).length, 1);
  });

  test("a deadline whose transaction failed runs again, once", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    w.store.failSaves = 1;
    await assert.rejects(w.runJobsAt(new Date(Date.parse(startsAt) - 24 * hour)), /COMMIT/);
    assert.deepEqual(((await w.instance("t1", "a1"))?.state as { log: string[] }).log, ["booked"]);
    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt) - 23 * hour)), 1, "retried");
    assert.deepEqual(((await w.instance("t1", "a1"))?.state as { log: string[] }).log, [
      "booked",
      "reminded",
    ]);
    assert.equal(w.effects.done.filter((line) => line.includes("reminded")).length, 1);
  });

  test("a deadline job claimed again after its worker died (transition committed) is a no-op", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    w.clock.set(new Date(Date.parse(startsAt) - 24 * hour));
    const [claimed] = await w.jobs.store.jobClaim({
      queue: "appointments",
      limit: 1,
      now: w.clock.now(),
      leases: {},
      defaultLeaseMs: 30_000,
    });
    assert.equal(claimed?.name, "appointments.confirmation-deadline");
    // The worker ran the transition, which committed, and died before it recorded the success.
    await w.runDeadline("t1", claimed!.payload as unknown as ScheduledDeadline);
    const once = await w.instance("t1", "a1");
    assert.deepEqual((once?.state as { log: string[] }).log, ["booked", "reminded"]);
    w.clock.advance(30_001);
    assert.equal(await w.jobs.runDue(), 1, "claimed again once its lease ended");
    const job = await w.jobs.find(claimed!.id);
    assert.equal(job?.status, "succeeded");
    assert.equal(job?.attempts, 2);
    const twice = await w.instance("t1", "a1");
    assert.equal(twice?.version, once?.version, "no second transition");
    assert.equal(w.effects.done.filter((line) => line.includes("reminded")).length, 1);
  });

  test("counts and pages of instances answer only the tenants reached", async (w) => {
    for (const [tenant, key] of [["t1", "a1"], ["t1", "a2"], ["t1", "a3"], ["t2", "a1"]]) {
      await w.publish(tenant!, Booked, { appointmentId: key!, startsAt });
    }
    await w.deliver();
    await w.publish("t1", Cancelled, { appointmentId: "a2" });
    await w.deliver();
    const process = "appointments.confirmation";
    assert.deepEqual(await w.store.instanceCount({ reach: {} }), [
      { process, active: 3, completed: 1 },
    ]);
    assert.deepEqual(await w.store.instanceCount({ reach: { tenantId: "t2" } }), [
      { process, active: 1, completed: 0 },
    ]);
    assert.deepEqual(await w.store.instanceCount({ reach: { tenantId: "t3" } }), []);
    const keys = (page: { instances: readonly ProcessInstance[] }) =>
      page.instances.map((i) => `${i.tenantId}/${i.key}`);
    const first = await w.store.instanceList({ process, reach: {}, limit: 2 });
    assert.deepEqual(keys(first), ["t1/a1", "t1/a2"]);
    assert.ok(first.next);
    const second = await w.store.instanceList({ process, reach: {}, limit: 2, after: first.next });
    assert.deepEqual(keys(second), ["t1/a3", "t2/a1"]);
    assert.equal(second.next, undefined);
    assert.deepEqual(
      keys(await w.store.instanceList({ process, reach: {}, limit: 10, status: "completed" })),
      ["t1/a2"],
    );
    assert.deepEqual(
      keys(await w.store.instanceList({ process, reach: { tenantId: "t2" }, limit: 10 })),
      ["t2/a1"],
    );
    assert.deepEqual(
      keys(
        await w.store.instanceList({
          process,
          reach: { tenantId: "t2", elevatedTenants: ["t1"] },
          status: "active",
          limit: 10,
        }),
      ),
      ["t1/a1", "t1/a3", "t2/a1"],
    );
    await assert.rejects(
      w.store.instanceList({ process, reach: {}, limit: 2, after: "not a cursor" }),
      TypeError,
    );
    await assert.rejects(w.store.instanceList({ process, reach: {}, limit: 0 }), RangeError);
    assert.equal(
      await w.store.instanceRead({ ...ref("t1", "a1"), reach: { tenantId: "t2" } }),
      undefined,
      "another tenant's instance is not read",
    );
    assert.equal(
      (await w.store.instanceRead({ ...ref("t1", "a1"), reach: { tenantId: "t1" } }))?.key,
      "a1",
    );
  });

  test("an operator ends an instance: archived, deadline jobs cancelled, in its history", async (w) => {
    await w.publish("t1", Booked, { appointmentId: "a1", startsAt });
    await w.deliver();
    const started = (await w.instance("t1", "a1"))!;
    const remind = await w.pending("t1", "a1", "remind");
    assert.equal(await w.end("t1", "a1", { tenantId: "t2" }), undefined, "not reached");
    assert.equal(
      (await w.instance("t1", "a1"))?.status,
      "active",
      "another tenant changes nothing",
    );
    const ended = await w.end("t1", "a1", { tenantId: "t1" });
    assert.equal(ended?.version, started.version, "answers the instance as it was");
    const after = (await w.instance("t1", "a1"))!;
    assert.equal(after.status, "completed");
    assert.equal(after.endedBy, "operator-1");
    assert.equal(after.version, started.version + 1);
    assert.deepEqual(after.deadlines, {});
    assert.ok(after.completedAt instanceof Date);
    for (const pending of Object.values(started.deadlines)) {
      assert.equal((await w.jobs.find(pending.jobId!))?.status, "cancelled");
    }
    const history = await w.store.messageList(ref("t1", "a1"));
    assert.deepEqual(history.map((m) => `${m.kind} ${m.name}`), [
      "event appointments.appointment.booked",
      "operator operator-1",
    ]);
    assert.equal(await w.end("t1", "a1", {}), undefined, "an ended instance is not ended again");
    await w.runDeadline("t1", remind);
    assert.equal((await w.instance("t1", "a1"))?.version, after.version, "its deadline: a no-op");
    assert.equal(await w.runJobsAt(new Date(Date.parse(startsAt))), 0, "no deadline job runs");
    assert.deepEqual(w.effects.done, ["t1: booked a1"]);
  });
}
