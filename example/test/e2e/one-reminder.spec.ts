/**
 * One message a day before, not two, over HTTP on PostgreSQL with the test clock: the reminder
 * job (SendReminder → RemindPatient) and scheduling's appointment-confirmation process fall due
 * together at the default notice (24 hours); an appointment still awaiting confirmation then gets
 * only the request to confirm it. A confirmed one is reminded; a patient with another notice is
 * reminded at their notice.
 */
import assert from "node:assert/strict";
import { callers, type Client, e2e, openAllWeekCalendar, practice } from "./e2e.ts";

// The platform's clock starts on Monday 2026-03-02 08:00; the appointment is on Wednesday 10:00.
const startsAt = "2026-03-04T10:00:00.000Z";
const dayBefore = "2026-03-03T10:00:00.000Z";

async function book(client: Client): Promise<string> {
  const booked = await client.send("POST", "/appointments/", {
    as: callers.patient,
    body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt },
  });
  assert.equal(booked.status, 201, booked.text);
  return booked.body.id as string;
}

/** What the patient was told about the appointment, `kind`, oldest first. */
async function told(client: Client, id: string): Promise<string[]> {
  const answer = await client.send("GET", "/notifications", { as: callers.patient });
  assert.equal(answer.status, 200, answer.text);
  return (answer.body.items as { kind: string; relatedId: string }[])
    .filter((n) => n.relatedId === id).map((n) => n.kind).reverse();
}

e2e(
  "default notice, not confirmed: a day before the patient gets one message, the request to confirm",
  async ({ client, application, clock }) => {
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();

    clock.set(new Date(dayBefore));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    await application.backgroundJobs.runDue();
    assert.deepEqual(await told(client, id), [
      "appointment-booked",
      "appointment-confirmation-request",
    ]);
  },
);

e2e(
  "default notice, confirmed before: a day before the patient gets the reminder, and is not asked",
  async ({ client, application, clock }) => {
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();
    const confirmed = await client.send("POST", `/appointments/${id}/confirmation`, {
      as: callers.patient,
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    await application.events.relay.deliverDue();

    clock.set(new Date(dayBefore));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    assert.deepEqual(await told(client, id), [
      "appointment-booked",
      "appointment-confirmed",
      "appointment-reminder",
    ]);
  },
);

e2e(
  "a two hours' notice: asked to confirm a day before, confirmed, reminded two hours before",
  async ({ client, application, clock, db }) => {
    await db.sql`insert into notifications.preferences
      (tenant_id, person_id, email, sms, reminder_hours_before)
      values (${practice}, ${callers.patient.sub}, false, false, 2)`;
    await openAllWeekCalendar(client, "cal-1");
    const id = await book(client);
    await application.events.relay.deliverDue();

    clock.set(new Date(dayBefore));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    assert.deepEqual(await told(client, id), [
      "appointment-booked",
      "appointment-confirmation-request",
    ]);
    const confirmed = await client.send("POST", `/appointments/${id}/confirmation`, {
      as: callers.patient,
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    await application.events.relay.deliverDue();

    clock.set(new Date("2026-03-04T08:00:00.000Z"));
    await application.backgroundJobs.runDue();
    await application.events.relay.deliverDue();
    assert.deepEqual(await told(client, id), [
      "appointment-booked",
      "appointment-confirmation-request",
      "appointment-confirmed",
      "appointment-reminder",
    ]);
  },
);
