import assert from "node:assert/strict";
import { callers, type Client, e2e } from "./e2e.ts";

const monday = (hhmm: string) => `2026-03-02T${hhmm}:00Z`;

/** Opens cal-1 with a 30-minute check-up, open 09:00-17:00 UTC on the weekdays given. */
async function openCalendar(client: Client, weekdays: readonly number[]): Promise<void> {
  const as = callers.practitioner;
  await client.send("PUT", "/calendars/cal-1", { as });
  await client.send("PUT", "/calendars/cal-1/appointment-types/checkup", {
    as,
    body: { name: "Check-up", durationMinutes: 30 },
  });
  const windows = weekdays.map((weekday) => ({ weekday, opens: "09:00", closes: "17:00" }));
  await client.send("PUT", "/calendars/cal-1/opening-hours", { as, body: { windows } });
}

e2e(
  "GET /people/me answers the caller from the token, and the profile once registered",
  async ({ client }) => {
    const before = await client.send("GET", "/people/me", { as: callers.patient });
    assert.equal(before.status, 200);
    assert.deepEqual(before.body, {
      id: "pat-1",
      roles: ["patient"],
      tenants: ["practice-1"],
      registered: false,
    });
    const registered = await client.send("POST", "/people/me", {
      as: callers.patient,
      body: { name: "Ada Lovelace", email: "ada@example.org" },
    });
    assert.equal(registered.status, 201);
    const again = await client.send("POST", "/people/me", {
      as: callers.patient,
      body: { name: "Ada Lovelace", email: "ada@example.org" },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, "PERSON_REGISTERED");
    const after = await client.send("GET", "/people/me", { as: callers.patient });
    assert.equal(after.body.registered, true);
    assert.equal(after.body.name, "Ada Lovelace");
    assert.equal((await client.send("GET", "/people/me")).status, 401);
  },
);

e2e(
  "GET /people/invitations lists the practice's invitations to staff only",
  async ({ client }) => {
    const invited = await client.send("POST", "/people/invitations", {
      as: callers.receptionist,
      body: { email: "New@Example.org", role: "patient" },
    });
    assert.equal(invited.status, 201);
    const twice = await client.send("POST", "/people/invitations", {
      as: callers.receptionist,
      body: { email: "new@example.org", role: "patient" },
    });
    assert.equal(twice.body.code, "ALREADY_INVITED");
    const list = await client.send("GET", "/people/invitations", { as: callers.practitioner });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((i: { email: string; role: string; invitedBy: string }) => [
        i.email,
        i.role,
        i.invitedBy,
      ]),
      [["new@example.org", "patient", "desk-1"]],
    );
    const elsewhere = await client.send("GET", "/people/invitations", {
      as: { sub: "dr-no", roles: ["practitioner"], tenants: ["practice-2"] },
      tenant: "practice-2",
    });
    assert.deepEqual(elsewhere.body, [], "another practice sees none of these");
    const patient = await client.send("GET", "/people/invitations", { as: callers.patient });
    assert.equal(patient.status, 403);
  },
);

e2e(
  "appointment events reach notifications and analytics through the outbox, once each",
  async ({ client, application, db }) => {
    await openCalendar(client, [1]);
    const { id } = (await client.send("POST", "/appointments/", {
      as: callers.patient,
      body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: monday("10:00") },
    })).body;
    await client.send("POST", `/appointments/${id}/cancellation`, {
      as: callers.patient,
      body: { reason: "ill" },
    });
    const empty = await client.send("GET", "/notifications", { as: callers.patient });
    assert.deepEqual(empty.body, { items: [], total: 0, page: 1, pageSize: 20 });

    // The relay delivers what the commands wrote in their transactions; a second pass finds nothing.
    assert.ok(await application.events.relay.deliverDue() > 0);
    assert.equal(await application.events.relay.deliverDue(), 0);

    const all = await client.send("GET", "/notifications", { as: callers.patient });
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 2);
    assert.deepEqual(all.body.items.map((n: { kind: string }) => n.kind).sort(), [
      "appointment-booked",
      "appointment-cancelled",
    ]);
    const cancelled = await client.send(
      "GET",
      "/notifications?kind=appointment-cancelled&unread=true",
      {
        as: callers.patient,
      },
    );
    assert.equal(cancelled.body.total, 1);
    assert.match(cancelled.body.items[0].body, /2026-03-02 at 10:00 UTC is cancelled: ill/);
    const paged = await client.send("GET", "/notifications?page=2&pageSize=1", {
      as: callers.patient,
    });
    assert.equal(paged.body.items.length, 1);
    assert.equal(paged.body.total, 2);
    const bad = await client.send("GET", "/notifications?kind=spam&pageSize=500", {
      as: callers.patient,
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors.length, 2);
    const other = await client.send("GET", "/notifications", { as: callers.otherPatient });
    assert.equal(other.body.total, 0, "a person sees only their own notifications");

    const [counts] = await db.sql`select booked, cancelled from analytics.daily_bookings
    where calendar_id = 'cal-1' and day = '2026-03-02'`;
    assert.deepEqual({ ...counts }, { booked: 1, cancelled: 1 });
  },
);

e2e(
  "GET /notifications/preferences answers the defaults until set; visitors are refused",
  async ({ client }) => {
    const prefs = await client.send("GET", "/notifications/preferences", { as: callers.patient });
    assert.deepEqual(prefs.body, { email: true, sms: false, reminderHoursBefore: 24 });
    const visitor = await client.send("GET", "/notifications/preferences", { as: callers.visitor });
    assert.equal(visitor.status, 403);
    assert.equal(visitor.body.code, "FORBIDDEN");
  },
);

e2e("staff send a message; patients may not", async ({ client }) => {
  const sent = await client.send("POST", "/notifications", {
    as: callers.receptionist,
    body: { recipientId: "pat-1", title: "Parking", body: "The car park is closed on Monday." },
  });
  assert.equal(sent.status, 201);
  const inbox = await client.send("GET", "/notifications?kind=message", { as: callers.patient });
  assert.equal(inbox.body.items[0].title, "Parking");
  const refused = await client.send("POST", "/notifications", {
    as: callers.patient,
    body: { recipientId: "pat-2", title: "Hi", body: "Hello" },
  });
  assert.equal(refused.status, 403);
});

e2e(
  "guards run group first, then controller: the refusal names the guard that answered",
  async ({ client, refusals }) => {
    // The group's Authenticated answers an anonymous caller, before the controller's HasRole.
    const anonymous = await client.send("GET", "/people/invitations");
    assert.equal(anonymous.status, 401);
    // An identified patient passes the group; the controller's HasRole answers 403.
    const patient = await client.send("GET", "/people/invitations", { as: callers.patient });
    assert.equal(patient.status, 403);
    assert.deepEqual(refusals, [
      "Authenticated GET /people/invitations",
      "HasRole(practitioner, receptionist) GET /people/invitations",
    ]);
  },
);

e2e(
  "a booking plans a reminder job at the patient's notice; moving re-plans it, cancelling cancels it",
  async ({ client, application, clock, db }) => {
    const as = callers.practitioner;
    await client.send("PUT", "/calendars/cal-1", { as });
    await client.send("PUT", "/calendars/cal-1/appointment-types/checkup", {
      as,
      body: { name: "Check-up", durationMinutes: 30 },
    });
    await client.send("PUT", "/calendars/cal-1/opening-hours", {
      as,
      body: {
        windows: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: "09:00", closes: "17:00" })),
      },
    });
    const book = async (startsAt: string) =>
      (await client.send("POST", "/appointments/", {
        as: callers.patient,
        body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt },
      })).body.id as string;
    const reminders = async () =>
      (await client.send("GET", "/notifications?kind=appointment-reminder", {
        as: callers.patient,
      }))
        .body;
    // Runs the jobs due; answers how many reminder jobs ran so far (the appointment-confirmation
    // process's deadlines run beside them).
    const remindersRun = async () => {
      await application.backgroundJobs.runDue();
      const [ran] = await db.sql`select count(*)::int as n from notifications.background_jobs
        where name = 'notifications.send-reminder' and status <> 'waiting'
          and status <> 'cancelled'`;
      return ran!.n as number;
    };

    const wednesday = await book("2026-03-04T10:00:00Z");
    const friday = await book("2026-03-06T10:00:00Z");
    await application.events.relay.deliverDue();
    // Nothing is due before Tuesday 10:00 (24 hours' notice by default).
    assert.equal(await remindersRun(), 0);

    // Friday's appointment moves to Thursday: its reminder moves to Wednesday 10:00.
    await client.send("POST", `/appointments/${friday}/rescheduling`, {
      as: callers.patient,
      body: { startsAt: "2026-03-05T10:00:00Z" },
    });
    await client.send("POST", `/appointments/${wednesday}/cancellation`, {
      as: callers.patient,
      body: { reason: "ill" },
    });
    // The moved one is confirmed, so that its reminder is sent (unconfirmed, within the day before
    // its start, the request to confirm it replaces the reminder: one-reminder.spec.ts).
    await client.send("POST", `/appointments/${friday}/confirmation`, { as: callers.patient });
    await application.events.relay.deliverDue();

    clock.set(new Date("2026-03-03T10:00:00Z"));
    assert.equal(await remindersRun(), 0, "the cancelled one's reminder is off");
    clock.set(new Date("2026-03-04T10:00:00Z"));
    assert.equal(await remindersRun(), 1);
    const sent = await reminders();
    assert.equal(sent.total, 1);
    assert.equal(sent.items[0].relatedId, friday);
    assert.match(sent.items[0].body, /2026-03-05 at 10:00 UTC/);
    clock.set(new Date("2026-03-05T09:00:00Z"));
    assert.equal(await remindersRun(), 1, "the first plan was cancelled");
  },
);

e2e(
  "every consumer of an event handles a redelivery once: notifications, reminders and analytics",
  async ({ client, application, db }) => {
    await openCalendar(client, [1, 2]);
    const registered = await client.send("POST", "/people/me", {
      as: callers.patient,
      body: { name: "Ada", email: "ada@example.org" },
    });
    assert.equal(registered.status, 201);
    const { id } = (await client.send("POST", "/appointments/", {
      as: callers.patient,
      body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: monday("10:00") },
    })).body;
    for (
      const [path, body] of [
        ["confirmation", undefined],
        ["rescheduling", { startsAt: monday("11:00") }],
        ["cancellation", { reason: "ill" }],
      ] as const
    ) {
      const answer = await client.send("POST", `/appointments/${id}/${path}`, {
        as: callers.patient,
        ...(body === undefined ? {} : { body }),
      });
      assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.body)}`);
    }
    const handled = await application.events.relay.deliverDue();
    // PersonRegistered → analytics; AppointmentBooked → notifications, analytics; Confirmed,
    // Rescheduled → notifications; Cancelled → notifications, analytics; and each appointment
    // event → scheduling's appointment-confirmation process.
    assert.equal(handled, 11, "every consumer reached");
    assert.equal(await application.events.relay.deliverDue(), 0);

    /** What the consumers wrote, table by table. */
    const effects = async () => ({
      notifications: (await db.sql`select kind from notifications.notifications
        order by kind`).map((row) => row.kind as string),
      reminders: Number(
        (await db.sql`select count(*)::int as n from notifications.reminders`)[0]!.n,
      ),
      bookings: (await db.sql`select day, booked, cancelled from analytics.daily_bookings
        order by day`).map((row) => ({ ...row })),
      registrations: (await db.sql`select day, registered from analytics.daily_registrations
        order by day`).map((row) => ({ ...row })),
      // Every context's jobs, each in its own schema.
      jobs: Number(
        (await db.sql`select (select count(*) from notifications.background_jobs)
          + (select count(*) from scheduling.background_jobs)
          + (select count(*) from analytics.background_jobs)
          + (select count(*) from identity.background_jobs)
          + (select count(*) from availability.background_jobs) as n`)[0]!.n,
      ),
      confirmation: (await db.sql`select status, version from scheduling.kit_process_instances
        where key = ${id}`).map((row) => ({ ...row })),
      handledByTheProcess: Number(
        (await db.sql`select count(*)::int as n from scheduling.kit_process_messages`)[0]!.n,
      ),
    });
    const once = await effects();
    assert.deepEqual(once.notifications, [
      "appointment-booked",
      "appointment-cancelled",
      "appointment-confirmed",
      "appointment-rescheduled",
    ]);
    assert.deepEqual(once.bookings.map((b) => [b.booked, b.cancelled]), [[1, 1]]);
    assert.equal(once.registrations.length, 1);
    assert.deepEqual(once.confirmation, [{ status: "completed", version: 4 }]);
    assert.equal(once.handledByTheProcess, 4);

    // Every delivery again, as after a relay that lost the answer to its commit: each handler
    // runs, finds the event processed, and changes nothing.
    const again = await db.sql`update kit_outbox_deliveries
      set delivered_at = null, due_at = '2000-01-01', attempts = 0`;
    assert.equal(again.count, handled);
    assert.equal(await application.events.relay.deliverDue(), handled, "each delivered again");
    assert.deepEqual(await effects(), once, "and handled once");
  },
);
