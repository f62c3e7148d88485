/**
 * The appointment-confirmation process (scheduling's process manager), over HTTP on PostgreSQL,
 * driven with the test clock: booked, the patient is asked to confirm a day before; not
 * confirmed two hours before, the appointment is cancelled and its slot released; cancelled, the
 * process stops. Its deadlines are the background jobs `scheduling.appointment-confirmation-deadline`,
 * run by moving the clock and running the jobs then due; its instance is read as an operator
 * reads it, from the jobs dashboard.
 */
import assert from "node:assert/strict";
import type { TokenClaims } from "../../src/platform/auth/tokens.ts";
import { type Answer, callers, type Client, e2e, openAllWeekCalendar, practice } from "./e2e.ts";

const process = "scheduling.appointment-confirmation";
const deadlineJob = `${process}-deadline`;
const operator: TokenClaims = { sub: "ops-1", roles: ["operator"], tenants: [practice] };
// The platform's clock starts on Monday 2026-03-02 08:00; the appointment is on Wednesday 10:00.
const startsAt = "2026-03-04T10:00:00.000Z";
const remindAt = "2026-03-03T10:00:00.000Z";
const releaseAt = "2026-03-04T08:00:00.000Z";

async function book(client: Client, as: TokenClaims = callers.patient): Promise<string> {
  const booked = await client.send("POST", "/appointments/", {
    as,
    body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt },
  });
  assert.equal(booked.status, 201, booked.text);
  return booked.body.id as string;
}

/** The instance and its history, as the jobs dashboard shows them to an operator. */
async function instance(client: Client, key: string): Promise<Answer> {
  return await client.send("GET", `/ops/jobs/processes/${process}/instances/${key}`, {
    as: operator,
  });
}

/** The pending deadlines of the instance, `name@at`, sorted. */
async function pending(client: Client, key: string): Promise<string[]> {
  const answer = await instance(client, key);
  assert.equal(answer.status, 200, answer.text);
  return (answer.body.instance.deadlines as { name: string; at: string }[])
    .map((d) => `${d.name}@${d.at}`).sort();
}

/** The patient's notifications of a kind. */
async function told(client: Client, kind: string): Promise<{ relatedId: string; body: string }[]> {
  const answer = await client.send("GET", `/notifications?kind=${kind}`, { as: callers.patient });
  assert.equal(answer.status, 200, answer.text);
  return answer.body.items;
}

e2e(
  "confirmed in time: asked a day before, confirmed, never released; the process ends at the start",
  async ({ client, application, clock, db }) => {
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();
    assert.deepEqual(await pending(client, id), [`release@${releaseAt}`, `remind@${remindAt}`]);
    const jobs = await db.sql`
      select tenant_id, status from scheduling.background_jobs where name = ${deadlineJob} order by run_at`;
    assert.deepEqual(
      jobs.map((j) => [j.tenant_id, j.status]),
      [[practice, "waiting"], [practice, "waiting"]],
      "two deadline jobs, in the appointment's practice",
    );

    // A day before: the patient is asked to confirm, and told when the slot is released.
    clock.set(new Date(remindAt));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    const asked = await told(client, "appointment-confirmation-request");
    assert.equal(asked.length, 1, "one confirmation request");
    assert.equal(asked[0]!.relatedId, id);
    assert.match(asked[0]!.body, /before 2026-03-04 at 08:00 UTC/);

    const confirmed = await client.send("POST", `/appointments/${id}/confirmation`, {
      as: callers.patient,
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    await application.events.relay.deliverDue();
    assert.deepEqual(await pending(client, id), [`close@${startsAt}`], "the release cancelled");
    const [release] = await db.sql`
      select status from scheduling.background_jobs
      where name = ${deadlineJob} and payload->>'name' = 'release'`;
    assert.equal(release?.status, "cancelled", "the release's job cancelled with the transition");

    // Two hours before, nothing happens to a confirmed appointment.
    clock.set(new Date(releaseAt));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    const read = await client.send("GET", `/appointments/${id}`, { as: callers.patient });
    assert.equal(read.body.status, "confirmed");
    assert.equal((await told(client, "appointment-cancelled")).length, 0, "nothing cancelled");

    // At its start the process has nothing left to follow.
    clock.set(new Date(startsAt));
    await application.backgroundJobs.runDue();
    const ended = await instance(client, id);
    assert.equal(ended.body.instance.status, "completed");
    assert.deepEqual(
      (ended.body.history as { kind: string; name: string }[]).map((m) => `${m.kind} ${m.name}`),
      [
        "event scheduling.appointment.booked",
        "deadline remind",
        "event scheduling.appointment.confirmed",
        "deadline close",
      ],
    );
  },
);

e2e(
  "never confirmed: two hours before its start the appointment is cancelled, once, and its slot is free again",
  async ({ client, application, clock, db }) => {
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();
    clock.set(new Date(remindAt));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    assert.equal((await told(client, "appointment-confirmation-request")).length, 1);

    // A minute before the release nothing is released.
    clock.set(new Date(Date.parse(releaseAt) - 60_000));
    await application.backgroundJobs.runDue();
    assert.equal(
      (await client.send("GET", `/appointments/${id}`, { as: callers.patient })).body.status,
      "booked",
    );

    clock.set(new Date(releaseAt));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    const read = await client.send("GET", `/appointments/${id}`, { as: callers.patient });
    assert.equal(read.body.status, "cancelled", "released at the deadline");
    const cancelled = await told(client, "appointment-cancelled");
    assert.equal(cancelled.length, 1, "the patient is told once");
    assert.match(cancelled[0]!.body, /not confirmed two hours before its start/);
    assert.equal((await instance(client, id)).body.instance.status, "completed");
    const [events] = await db.sql`
      select count(*)::int as n from kit_outbox
      where type = 'scheduling.appointment.cancelled' and tenant_id = ${practice}`;
    assert.equal(events?.n, 1, "one cancellation published, in the appointment's practice");

    // Nothing runs again; the slot is free: another patient books it.
    assert.equal(await application.backgroundJobs.runDue(), 0);
    const rebooked = await client.send("POST", "/appointments/", {
      as: callers.otherPatient,
      body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt },
    });
    assert.equal(rebooked.status, 201, rebooked.text);
  },
);

e2e(
  "cancelled before the reminder: no reminder, the process ended and its deadline jobs cancelled",
  async ({ client, application, clock, db }) => {
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();

    clock.set(new Date("2026-03-02T09:00:00Z"));
    const cancel = await client.send("POST", `/appointments/${id}/cancellation`, {
      as: callers.patient,
      body: { reason: "ill" },
    });
    assert.equal(cancel.status, 201, cancel.text);
    await application.events.relay.deliverDue();
    const ended = await instance(client, id);
    assert.equal(ended.body.instance.status, "completed");
    assert.deepEqual(ended.body.instance.deadlines, []);
    const jobs = await db
      .sql`select status from scheduling.background_jobs where name = ${deadlineJob}`;
    assert.deepEqual(jobs.map((j) => j.status), ["cancelled", "cancelled"]);

    for (const at of [remindAt, releaseAt, startsAt]) {
      clock.set(new Date(at));
      await application.backgroundJobs.runDue();
      await application.events.relay.deliverDue();
    }
    assert.deepEqual(await told(client, "appointment-confirmation-request"), [], "no reminder");
    const cancelled = await told(client, "appointment-cancelled");
    assert.equal(cancelled.length, 1);
    assert.match(cancelled[0]!.body, /: ill\.$/, "cancelled by the patient, not released");
  },
);

e2e(
  "moved: the process follows the new start, and a confirmation of the old one no longer holds",
  async ({ client, application, clock }) => {
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();
    const confirmed = await client.send("POST", `/appointments/${id}/confirmation`, {
      as: callers.patient,
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    await application.events.relay.deliverDue();
    assert.deepEqual(await pending(client, id), [`close@${startsAt}`]);

    const moved = await client.send("POST", `/appointments/${id}/rescheduling`, {
      as: callers.patient,
      body: { startsAt: "2026-03-05T10:00:00Z" },
    });
    assert.equal(moved.status, 201, moved.text);
    await application.events.relay.deliverDue();
    assert.deepEqual(await pending(client, id), [
      "release@2026-03-05T08:00:00.000Z",
      "remind@2026-03-04T10:00:00.000Z",
    ]);
    assert.equal((await instance(client, id)).body.instance.state.confirmed, false);

    clock.set(new Date("2026-03-05T08:00:00Z"));
    await application.backgroundJobs.runDue();
    const read = await client.send("GET", `/appointments/${id}`, { as: callers.patient });
    assert.equal(read.body.status, "cancelled", "unconfirmed at its new start, released");
  },
);

e2e(
  "an operator of another practice does not see the instance",
  async ({ client, application }) => {
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();
    const other = await client.send("GET", `/ops/jobs/processes/${process}/instances/${id}`, {
      as: { sub: "ops-2", roles: ["operator"], tenants: ["practice-2"] },
      tenant: "practice-2",
    });
    assert.equal(other.status, 404, other.text);
    assert.equal((await instance(client, id)).body.instance.tenantId, practice);
  },
);
