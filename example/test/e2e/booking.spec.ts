import assert from "node:assert/strict";
import { type Answer, callers, type Client, e2e } from "./e2e.ts";

// The application's clock: Monday 2 March 2026, 08:00 UTC.
const monday = (hhmm: string) => `2026-03-02T${hhmm}:00Z`;

/** A calendar open Monday to Friday 09:00-17:00 UTC, offering a 30-minute check-up. */
async function openCalendar(client: Client, id = "cal-1"): Promise<void> {
  const as = callers.practitioner;
  expect(await client.send("PUT", `/calendars/${id}`, { as }), 201);
  expect(
    await client.send("PUT", `/calendars/${id}/appointment-types/checkup`, {
      as,
      body: { name: "Check-up", durationMinutes: 30 },
    }),
    200,
  );
  expect(
    await client.send("PUT", `/calendars/${id}/opening-hours`, {
      as,
      body: {
        windows: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: "09:00", closes: "17:00" })),
      },
    }),
    204,
  );
}

function expect(answer: Answer, status: number, code?: string): Answer {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (code !== undefined) {
    assert.equal(answer.body.code, code);
    assert.equal(answer.headers.get("content-type"), "application/problem+json");
  }
  return answer;
}

function book(
  client: Client,
  startsAt: string,
  options: {
    as?: typeof callers.patient;
    calendarId?: string;
    type?: string;
    patientId?: string;
    key?: string;
  } = {},
): Promise<Answer> {
  return client.send("POST", "/appointments/", {
    as: options.as ?? callers.patient,
    ...(options.key ? { headers: { "idempotency-key": options.key } } : {}),
    body: {
      calendarId: options.calendarId ?? "cal-1",
      appointmentTypeId: options.type ?? "checkup",
      startsAt,
      ...(options.patientId ? { patientId: options.patientId } : {}),
    },
  });
}

e2e(
  "PUT /calendars/:calendarId answers 201 with Location when it opens, 200 when it is there",
  async ({ client }) => {
    const created = expect(
      await client.send("PUT", "/calendars/cal-9", { as: callers.practitioner }),
      201,
    );
    assert.deepEqual(created.body, { id: "cal-9" });
    assert.equal(created.headers.get("location"), "/calendars/cal-9");
    const again = expect(
      await client.send("PUT", "/calendars/cal-9", { as: callers.practitioner }),
      200,
    );
    assert.deepEqual(again.body, { id: "cal-9" });
    assert.equal(again.headers.get("location"), null);
    expect(await client.send("PUT", "/calendars/cal-9"), 401, "UNAUTHORIZED");
    expect(await client.send("PUT", "/calendars/cal-8", { as: callers.patient }), 403, "FORBIDDEN");
  },
);

e2e("a patient books an appointment: 201 with its id", async ({ client }) => {
  await openCalendar(client);
  const booked = expect(await book(client, monday("10:00")), 201);
  assert.equal(typeof booked.body.id, "string");
});

e2e("booking refuses with every code the route declares", async ({ client }) => {
  await openCalendar(client);
  expect(await book(client, monday("10:00"), { calendarId: "nope" }), 404, "UNKNOWN_CALENDAR");
  expect(await book(client, monday("10:00"), { type: "surgery" }), 422, "UNKNOWN_APPOINTMENT_TYPE");
  expect(await book(client, monday("10:07")), 422, "OFF_GRID");
  expect(await book(client, monday("09:45")), 422, "BOOKING_TOO_LATE");
  expect(await book(client, "2026-06-01T10:00:00Z"), 422, "BOOKING_TOO_FAR");
  expect(await book(client, monday("17:00")), 422, "OUTSIDE_AVAILABILITY");
  expect(await book(client, "2026-03-07T10:00:00Z"), 422, "OUTSIDE_AVAILABILITY"); // a Saturday
  expect(await book(client, monday("10:00")), 201);
  expect(await book(client, monday("10:00"), { as: callers.otherPatient }), 409, "SLOT_TAKEN");
  expect(await book(client, monday("10:15"), { as: callers.otherPatient }), 409, "SLOT_TAKEN");
  expect(await book(client, monday("11:00")), 201);
  expect(await book(client, monday("12:00")), 201);
  expect(await book(client, monday("13:00")), 422, "PATIENT_LIMIT_REACHED");
});

e2e(
  "concurrent bookings of one slot: exactly one wins, every other answers SLOT_TAKEN",
  async ({ client }) => {
    await openCalendar(client);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        book(client, monday("14:00"), {
          as: callers.receptionist,
          patientId: `walk-in-${i}`,
        })),
    );
    assert.equal(answers.filter((a) => a.status === 201).length, 1);
    for (const a of answers.filter((a) => a.status !== 201)) expect(a, 409, "SLOT_TAKEN");
  },
);

e2e("staff book for a patient; a patient may not book for someone else", async ({ client }) => {
  await openCalendar(client);
  expect(
    await book(client, monday("10:00"), { as: callers.receptionist, patientId: "pat-7" }),
    201,
  );
  expect(await book(client, monday("11:00"), { patientId: "pat-7" }), 403, "FORBIDDEN");
});

e2e(
  "cancellation: 201, then a no-op; unknown, someone else's and ended appointments are refused",
  async ({ client, clock }) => {
    await openCalendar(client);
    const { id } = expect(await book(client, monday("10:00")), 201).body;
    const path = `/appointments/${id}/cancellation`;
    expect(
      await client.send("POST", path, { as: callers.otherPatient, body: { reason: "mine?" } }),
      404,
      "APPOINTMENT_NOT_FOUND",
    );
    assert.deepEqual(
      expect(await client.send("POST", path, { as: callers.patient, body: { reason: "ill" } }), 201)
        .body,
      { id },
    );
    expect(await client.send("POST", path, { as: callers.patient, body: { reason: "ill" } }), 201);
    expect(
      await client.send("POST", "/appointments/nope/cancellation", {
        as: callers.patient,
        body: { reason: "ill" },
      }),
      404,
      "APPOINTMENT_NOT_FOUND",
    );
    const later = expect(await book(client, monday("11:00")), 201).body.id;
    clock.set(new Date(monday("11:30")));
    expect(
      await client.send("POST", `/appointments/${later}/cancellation`, {
        as: callers.patient,
        body: { reason: "too late" },
      }),
      409,
      "APPOINTMENT_ENDED",
    );
  },
);

e2e(
  "confirmation: 201 for the patient; unknown and cancelled appointments are refused",
  async ({ client }) => {
    await openCalendar(client);
    const { id } = expect(await book(client, monday("10:00")), 201).body;
    assert.deepEqual(
      expect(
        await client.send("POST", `/appointments/${id}/confirmation`, { as: callers.patient }),
        201,
      )
        .body,
      { id },
    );
    expect(
      await client.send("POST", "/appointments/nope/confirmation", { as: callers.patient }),
      404,
      "APPOINTMENT_NOT_FOUND",
    );
    const other = expect(await book(client, monday("11:00")), 201).body.id;
    expect(
      await client.send("POST", `/appointments/${other}/cancellation`, {
        as: callers.patient,
        body: { reason: "ill" },
      }),
      201,
    );
    expect(
      await client.send("POST", `/appointments/${other}/confirmation`, { as: callers.patient }),
      409,
      "APPOINTMENT_CANCELLED",
    );
  },
);

e2e(
  "the pipeline's order: validation, then guards (401 before 403, group first), then the bus",
  async ({ client }) => {
    await openCalendar(client);
    const valid = { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: monday("10:00") };
    // Step 2 before step 4: a malformed request is 422 whoever sends it.
    expect(await client.send("POST", "/appointments/", { body: {} }), 422, "VALIDATION_FAILED");
    // Anonymous: the group's Authenticated answers 401.
    expect(await client.send("POST", "/appointments/", { body: valid }), 401, "UNAUTHORIZED");
    // Identified without a role of the group: the group's HasRole answers 403, no command runs.
    expect(
      await client.send("POST", "/appointments/", { as: callers.visitor, body: valid }),
      403,
      "FORBIDDEN",
    );
    // The practitioner passes the group; the command's permission (granted) and rules decide.
    expect(
      await client.send("POST", "/appointments/", { as: callers.practitioner, body: valid }),
      201,
    );
    // A token that does not verify is 401, not anonymous.
    const answer = await client.fetch("/appointments/", {
      method: "POST",
      headers: {
        authorization: "Bearer not-a-token",
        "x-tenant-id": "practice-1",
        "content-type": "application/json",
      },
      body: JSON.stringify(valid),
    });
    assert.equal(answer.status, 401);
    await answer.body?.cancel();
  },
);

e2e("a request failing its schema answers 422 listing every issue at once", async ({ client }) => {
  const answer = expect(
    await client.send("POST", "/appointments/", {
      as: callers.patient,
      body: { appointmentTypeId: "", startsAt: "next monday" },
    }),
    422,
    "VALIDATION_FAILED",
  );
  const paths = (answer.body.errors as { pointer: string }[]).map((i) => i.pointer).sort();
  assert.deepEqual(paths, ["/body/appointmentTypeId", "/body/calendarId", "/body/startsAt"]);
});

e2e("a caller naming a tenant they do not belong to is refused (403)", async ({ client }) => {
  await openCalendar(client);
  expect(
    await client.send("POST", "/appointments/", {
      as: callers.patient,
      tenant: "practice-2",
      body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: monday("10:00") },
    }),
    403,
    "FORBIDDEN",
  );
});

e2e("another practice's calendar is unknown to this practice", async ({ client }) => {
  await openCalendar(client);
  const elsewhere = { sub: "pat-9", roles: ["patient"], tenants: ["practice-2"] };
  expect(
    await client.send("POST", "/appointments/", {
      as: elsewhere,
      tenant: "practice-2",
      body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: monday("10:00") },
    }),
    404,
    "UNKNOWN_CALENDAR",
  );
});

e2e(
  "time off over booked appointments is refused; free time off closes the calendar",
  async ({ client }) => {
    await openCalendar(client);
    expect(await book(client, monday("10:00")), 201);
    const as = callers.practitioner;
    expect(
      await client.send("POST", "/calendars/cal-1/time-off", {
        as,
        body: { startsAt: monday("09:00"), endsAt: monday("12:00"), reason: "training" },
      }),
      409,
      "TIME_OFF_OVER_APPOINTMENTS",
    );
    expect(
      await client.send("POST", "/calendars/cal-1/time-off", {
        as,
        body: { startsAt: monday("13:00"), endsAt: monday("15:00"), reason: "training" },
      }),
      201,
    );
    expect(await book(client, monday("13:30")), 422, "OUTSIDE_AVAILABILITY");
  },
);

e2e(
  "rescheduling moves an appointment under the booking rules and tells the patient",
  async ({ client, application }) => {
    await openCalendar(client);
    const { id } = expect(await book(client, monday("10:00")), 201).body;
    expect(await book(client, monday("12:00"), { as: callers.otherPatient }), 201);
    const move = (startsAt: string, as = callers.patient) =>
      client.send("POST", `/appointments/${id}/rescheduling`, { as, body: { startsAt } });
    expect(await move(monday("12:15")), 409, "SLOT_TAKEN");
    expect(await move(monday("11:10")), 422, "OFF_GRID");
    expect(await move(monday("11:00"), callers.otherPatient), 404, "APPOINTMENT_NOT_FOUND");
    // Moving within its own period is no clash with itself.
    expect(await move(monday("10:15")), 201);
    expect(await move(monday("11:00")), 201);
    expect(await book(client, monday("10:00"), { as: callers.otherPatient }), 201);
    await application.events.relay.deliverDue();
    const moved = await client.send("GET", "/notifications?kind=appointment-rescheduled", {
      as: callers.patient,
    });
    assert.equal(moved.body.total, 2);
    assert.match(moved.body.items[0].body, /10:15 UTC moved to 2026-03-02 at 11:00 UTC/);
  },
);

e2e(
  "POST /appointments/ with an Idempotency-Key books once: a retry gets the first booking again",
  async ({ client, db }) => {
    await openCalendar(client);
    const first = expect(await book(client, monday("10:00"), { key: "booking-7f3a" }), 201);
    assert.equal(first.headers.get("idempotent-replayed"), null);
    // The answer was lost: the client sends the same request again, twice at once.
    const retries = await Promise.all(
      [1, 2].map(() => book(client, monday("10:00"), { key: "booking-7f3a" })),
    );
    for (const retry of retries) {
      expect(retry, 201);
      assert.deepEqual(retry.body, first.body);
      assert.equal(retry.headers.get("idempotent-replayed"), "true");
    }
    // The same key for another booking is refused, and books nothing.
    expect(
      await book(client, monday("11:00"), { key: "booking-7f3a" }),
      422,
      "IDEMPOTENCY_KEY_REUSED",
    );
    const [row] = await db.sql`select count(*)::int as n from scheduling.appointments`;
    assert.equal(row!.n, 1);
    // Without a key the retry is a second request: the slot is taken.
    expect(await book(client, monday("10:00")), 409, "SLOT_TAKEN");
  },
);
