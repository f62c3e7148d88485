/**
 * Each context's jobs in its own schema, as the specification says: "The table is
 * `background_jobs`, in the context's own database schema. The idempotency key is unique per job
 * name, tenant and key; `tenant_id` holds the empty text for a job without a tenant." A use
 * case's job is written in its transaction in its context's table and nowhere else, a rollback
 * leaves none, a worker process runs the jobs of every context (woken by each context's commits),
 * and the jobs dashboard lists them all.
 */
import assert from "node:assert/strict";
import { systemActor } from "@kit/kernel";
import type { NewJob } from "@kit/jobs/store";
import { ClearCalendar } from "../../src/contexts/scheduling/application/background/clear-calendar.job.ts";
import { composePlatform } from "../../src/platform/compose-application.ts";
import type { RunningTestPlatform } from "../../src/platform/platform-test.module.ts";
import { callers, type Client, e2e, openAllWeekCalendar, practice } from "./e2e.ts";

const contexts = ["analytics", "availability", "identity", "notifications", "scheduling"];
const operator = { sub: "ops-1", roles: ["operator"], tenants: [practice] };
const period = {
  from: "2026-03-09T00:00:00.000Z",
  until: "2026-03-10T00:00:00.000Z",
  reason: "closed",
};

/** The schemas whose `background_jobs` keeps the job, of every table of that name. */
async function schemasKeeping(app: RunningTestPlatform, id: string): Promise<string[]> {
  const tables = await app.db.sql`
    select table_schema as schema from information_schema.tables
    where table_name = 'background_jobs' order by 1`;
  const keeping: string[] = [];
  for (const { schema } of tables) {
    const [row] = await app.db.sql.unsafe(
      `select count(*)::int as n from "${schema}".background_jobs where id = $1`,
      [id],
    );
    if (row!.n > 0) keeping.push(schema as string);
  }
  return keeping;
}

/** How many jobs the context's table keeps. */
async function jobsIn(app: RunningTestPlatform, schema: string): Promise<number> {
  const [row] = await app.db.sql.unsafe(
    `select count(*)::int as n from "${schema}".background_jobs`,
  );
  return row!.n as number;
}

/** Books Wednesday 10:00 and relays it: notifications plans its reminder (due Tuesday 10:00). */
async function bookAndPlanReminder(app: RunningTestPlatform & { client: Client }): Promise<string> {
  const booked = await app.client.send("POST", "/appointments/", {
    as: callers.patient,
    body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: "2026-03-04T10:00:00Z" },
  });
  assert.equal(booked.status, 201, booked.text);
  await app.application.events.relay.deliverDue();
  const [reminder] = await app.db.sql`
    select job_id from notifications.reminders where appointment_id = ${booked.body.id}`;
  return reminder!.job_id as string;
}

e2e(
  "a context's use case keeps its job in its own schema's background_jobs and nowhere else; a rollback keeps none",
  async (app) => {
    const { client, db } = app;
    const tables = await db.sql`
      select table_schema as schema from information_schema.tables
      where table_name = 'background_jobs' order by 1`;
    assert.deepEqual(tables.map((t) => t.schema), contexts, "one table per context, no other");

    await openAllWeekCalendar(client, "cal-1");
    const posted = await client.send("POST", "/calendars/cal-1/clearances", {
      as: callers.practitioner,
      body: period,
    });
    assert.equal(posted.status, 202, posted.text);
    const clearance = posted.body.id as string;
    assert.deepEqual(await schemasKeeping(app, clearance), ["scheduling"]);
    const [row] = await db.sql`
      select name, queue, tenant_id from scheduling.background_jobs where id = ${clearance}`;
    assert.deepEqual({ ...row }, {
      name: "scheduling.clear-calendar",
      queue: "scheduling",
      tenant_id: practice,
    });

    // Another context's use case (notifications planning a reminder, on the booking's event).
    const reminder = await bookAndPlanReminder(app);
    assert.deepEqual(await schemasKeeping(app, reminder), ["notifications"]);

    // The use case fails after its enqueue (the event it publishes cannot be written): its
    // transaction rolls back, and the context's table keeps no job of it.
    const before = await jobsIn(app, "scheduling");
    await db.sql.unsafe(`
      create function refuse_clearance_event() returns trigger language plpgsql as $$
      begin raise exception 'the outbox refuses the event'; end $$;
      create trigger refuse_clearance_event before insert on kit_outbox
        for each row when (new.type like '%clearance%') execute function refuse_clearance_event();
    `);
    const refused = await fetch(`${app.url}/calendars/cal-1/clearances`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await app.token(callers.practitioner)}`,
        "content-type": "application/json",
        "x-tenant-id": practice,
      },
      body: JSON.stringify({ ...period, reason: "flooded" }),
    });
    await refused.body?.cancel();
    assert.equal(refused.status, 500, "the use case failed");
    assert.equal(await jobsIn(app, "scheduling"), before, "the rolled-back use case left no job");
    for (const schema of contexts.filter((c) => c !== "scheduling" && c !== "notifications")) {
      assert.equal(await jobsIn(app, schema), 0, `${schema} keeps no job`);
    }
  },
);

e2e(
  "the idempotency key is unique per job name, tenant and key; a job of no tenant keeps ''",
  async (app) => {
    const jobs = app.application.backgroundJobs;
    // Enqueued outside any request: no tenant.
    const first = await jobs.enqueue(ClearCalendar, {
      calendarId: "cal-1",
      appointmentIds: [],
      reason: "k",
    }, { idempotencyKey: "k" });
    const [row] = await app.db.sql`
      select tenant_id, idempotency_key from scheduling.background_jobs where id = ${first.id}`;
    assert.deepEqual({ ...row }, { tenant_id: "", idempotency_key: "k" });
    const again = await jobs.enqueue(ClearCalendar, {
      calendarId: "cal-2",
      appointmentIds: [],
      reason: "k",
    }, { idempotencyKey: "k" });
    assert.deepEqual(again, { id: first.id, duplicate: true }, "same name, no tenant, same key");

    const job = (overrides: Partial<NewJob>): NewJob => ({
      id: crypto.randomUUID(),
      name: ClearCalendar.jobName,
      queue: "scheduling",
      payload: { calendarId: "cal-1", appointmentIds: [], reason: "k" },
      actor: systemActor,
      correlationId: crypto.randomUUID(),
      idempotencyKey: "k",
      maxAttempts: 5,
      runAt: app.clock.now(),
      createdAt: app.clock.now(),
      ...overrides,
    });
    const store = jobs.store;
    const ofTenant = job({ tenantId: practice });
    assert.deepEqual(await store.jobInsert({ job: ofTenant }), { id: ofTenant.id }, "a tenant's");
    const ofOther = job({ tenantId: "practice-2" });
    assert.deepEqual(await store.jobInsert({ job: ofOther }), { id: ofOther.id }, "another's");
    const sameTenant = job({ tenantId: practice });
    assert.deepEqual(await store.jobInsert({ job: sameTenant }), {
      id: ofTenant.id,
      duplicate: true,
    });
    const otherName = job({ name: "scheduling.other-job", tenantId: practice });
    assert.deepEqual(await store.jobInsert({ job: otherName }), { id: otherName.id }, "a name's");

    // The table itself refuses a second row of a name, tenant and key, the empty tenant included.
    await assert.rejects(
      () =>
        app.db.sql`insert into scheduling.background_jobs
          (id, name, queue, payload, actor, tenant_id, correlation_id, idempotency_key,
            max_attempts, run_at, created_at)
          select ${crypto.randomUUID()}, name, queue, payload, actor, tenant_id, correlation_id,
            idempotency_key, max_attempts, run_at, created_at
          from scheduling.background_jobs where id = ${first.id}`,
      /background_jobs_idempotency/,
    );
    assert.deepEqual(
      (await app.db.sql`select tenant_id, count(*)::int as n from scheduling.background_jobs
        where idempotency_key = 'k' group by 1 order by 1`).map((r) => [r.tenant_id, r.n]),
      [["", 1], [practice, 2], ["practice-2", 1]],
    );
  },
);

e2e(
  "a worker process runs the jobs of every context, woken by each one's commit; the dashboard lists them all",
  async (app) => {
    const { client, clock, db } = app;
    await openAllWeekCalendar(client, "cal-1");
    // A worker of its own (another process's, as apps/worker runs it) on the same database, idle
    // before anything is enqueued: on a clock that does not move, only a notification wakes it.
    const worker = composePlatform({ sql: db.sql, clock, startJobs: true });
    await worker.start();
    try {
      const posted = await client.send("POST", "/calendars/cal-1/clearances", {
        as: callers.practitioner,
        body: period,
      });
      assert.equal(posted.status, 202, posted.text);
      const clearance = posted.body.id as string;
      const reminder = await bookAndPlanReminder(app);
      const statusOf = async (schema: string, id: string) =>
        (await db.sql.unsafe(`select status from "${schema}".background_jobs where id = $1`, [
          id,
        ]))[0]?.status as string | undefined;
      await until(async () => await statusOf("scheduling", clearance) === "succeeded");
      assert.equal(await statusOf("notifications", reminder), "waiting", "not due yet");
      const listedJobs = async () => {
        const listed = await client.send("GET", "/ops/jobs/jobs?limit=50", { as: operator });
        assert.equal(listed.status, 200, listed.text);
        const jobs = listed.body.jobs as { id: string; queue: string; status: string }[];
        return new Map(jobs.map((job) => [job.id, [job.queue, job.status]]));
      };
      const before = await listedJobs();
      assert.deepEqual(before.get(clearance), ["scheduling", "succeeded"]);
      assert.deepEqual(before.get(reminder), ["notifications", "waiting"]);
      const queues = await client.send("GET", "/ops/jobs/queues", { as: operator });
      assert.equal(queues.status, 200, queues.text);
      const names = (queues.body.queues as { queue: string }[]).map((q) => q.queue);
      assert.ok(
        names.includes("scheduling") && names.includes("notifications"),
        JSON.stringify(queues.body),
      );
      // Tuesday 10:00: the reminder falls due; the idle worker claims it from notifications at its
      // next poll (each check moves the clock by the poll interval, 1 s). (A day later, retention
      // may have removed the clearance that succeeded on Monday: it is checked above.)
      clock.set(new Date("2026-03-03T10:00:00Z"));
      await until(async () => {
        clock.advance(1_000);
        return await statusOf("notifications", reminder) === "succeeded";
      });
      assert.deepEqual((await listedJobs()).get(reminder), ["notifications", "succeeded"]);
    } finally {
      await worker.stop();
    }
  },
);

/** Waits, 10 ms at a time, for the worker of another application to get there (10 s at most). */
async function until(reached: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (await reached()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail("the worker did not run the job within 10 s");
}
