/**
 * Free slots, over HTTP on PostgreSQL: GET /calendars/:calendarId/slots lists the starts a booking
 * would be accepted at now, in the calendar's time zone (Europe/Paris across both changes of the
 * clocks in 2026), less time off and booked appointments (and the neighbours a booking would
 * overlap), within the minimum notice and the horizon; every listed slot books, an unlisted start
 * is refused. Another practice's calendar is unknown; the answer revalidates with an ETag.
 */
import assert from "node:assert/strict";
import { type Answer, callers, type Client, e2e, practice } from "./e2e.ts";

const as = callers.practitioner;
const desk = callers.receptionist;
const allWeek = (opens: string, closes: string) =>
  [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opens, closes }));

function ok(answer: Answer, status: number, what: string): Answer {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  return answer;
}

/** A calendar with a 30-minute check-up and a 15-minute visit, open every day. */
async function openCalendar(
  client: Client,
  id: string,
  hours: { opens: string; closes: string },
  timeZone?: string,
): Promise<void> {
  ok(
    await client.send("PUT", `/calendars/${id}`, {
      as,
      ...(timeZone === undefined ? {} : { body: { timeZone } }),
    }),
    201,
    "open",
  );
  for (const [type, durationMinutes] of [["checkup", 30], ["visit", 15]] as const) {
    ok(
      await client.send("PUT", `/calendars/${id}/appointment-types/${type}`, {
        as,
        body: { name: type, durationMinutes },
      }),
      200,
      type,
    );
  }
  ok(
    await client.send("PUT", `/calendars/${id}/opening-hours`, {
      as,
      body: { windows: allWeek(hours.opens, hours.closes) },
    }),
    204,
    "hours",
  );
}

function slotsPath(calendarId: string, from: string, until: string, type = "checkup"): string {
  const query = new URLSearchParams({ from, until, appointmentTypeId: type });
  return `/calendars/${calendarId}/slots?${query}`;
}

/** The starts of the free slots (ISO, UTC), checking each slot lasts the type's length. */
async function freeStarts(
  client: Client,
  calendarId: string,
  from: string,
  until: string,
  type = "checkup",
): Promise<string[]> {
  const answer = ok(
    await client.send("GET", slotsPath(calendarId, from, until, type), { as: callers.patient }),
    200,
    "slots",
  );
  const minutes = type === "checkup" ? 30 : 15;
  for (const slot of answer.body.slots) {
    assert.equal(Date.parse(slot.endsAt) - Date.parse(slot.startsAt), minutes * 60_000);
  }
  return answer.body.slots.map((s: { startsAt: string }) => new Date(s.startsAt).toISOString());
}

let patients = 0;
/** Books a start for a new patient (the patient limit is not the slot's business). */
function book(client: Client, calendarId: string, startsAt: string, type = "checkup") {
  return client.send("POST", "/appointments/", {
    as: desk,
    body: { calendarId, appointmentTypeId: type, startsAt, patientId: `pat-${++patients}` },
  });
}

const hhmm = (iso: string) => iso.slice(11, 16);

e2e(
  "a Paris calendar's 09:00-17:00 days have slots from 09:00 local on both sides of the spring change; each books",
  async ({ client }) => {
    await openCalendar(client, "cal-paris", { opens: "09:00", closes: "17:00" }, "Europe/Paris");
    const calendar = ok(await client.send("GET", "/calendars/cal-paris", { as }), 200, "read");
    assert.equal(calendar.body.timeZone, "Europe/Paris");

    // Paris local days: 2026-03-28 (UTC+1) and 2026-03-29 (UTC+2 from 02:00).
    const saturday = await freeStarts(
      client,
      "cal-paris",
      "2026-03-27T23:00:00Z",
      "2026-03-28T23:00:00Z",
    );
    const sunday = await freeStarts(
      client,
      "cal-paris",
      "2026-03-28T23:00:00Z",
      "2026-03-29T22:00:00Z",
    );
    assert.equal(saturday[0], "2026-03-28T08:00:00.000Z", "09:00 in Paris, UTC+1");
    assert.equal(saturday.at(-1), "2026-03-28T15:30:00.000Z", "16:30, ends at 17:00");
    assert.equal(sunday[0], "2026-03-29T07:00:00.000Z", "09:00 in Paris, UTC+2");
    assert.equal(sunday.at(-1), "2026-03-29T14:30:00.000Z");
    assert.equal(saturday.length, 31);
    assert.equal(sunday.length, 31);

    // Every listed slot of an hour books; every other start of the hour around it is refused.
    const from = "2026-03-29T07:00:00Z";
    const until = "2026-03-29T08:00:00Z";
    const listed = await freeStarts(client, "cal-paris", from, until, "visit");
    assert.deepEqual(listed.map(hhmm), ["07:00", "07:15", "07:30", "07:45"]);
    for (const startsAt of listed) {
      ok(await book(client, "cal-paris", startsAt, "visit"), 201, `book ${startsAt}`);
    }
    assert.deepEqual(await freeStarts(client, "cal-paris", from, until, "visit"), []);
    for (let t = Date.parse("2026-03-29T06:00:00Z"); t < Date.parse(until); t += 5 * 60_000) {
      const startsAt = new Date(t).toISOString();
      assert.equal((await book(client, "cal-paris", startsAt, "visit")).status >= 400, true);
    }
  },
  { now: "2026-03-20T00:00:00Z" },
);

e2e(
  "across the autumn change the same day starts at 09:00 local, an hour later in UTC; the zone can be changed",
  async ({ client }) => {
    await openCalendar(client, "cal-paris", { opens: "09:00", closes: "17:00" }, "Europe/Paris");
    const saturday = await freeStarts(
      client,
      "cal-paris",
      "2026-10-23T22:00:00Z",
      "2026-10-24T22:00:00Z",
    );
    const sunday = await freeStarts(
      client,
      "cal-paris",
      "2026-10-24T22:00:00Z",
      "2026-10-25T23:00:00Z",
    );
    assert.equal(saturday[0], "2026-10-24T07:00:00.000Z", "09:00 in Paris, UTC+2");
    assert.equal(sunday[0], "2026-10-25T08:00:00.000Z", "09:00 in Paris, UTC+1");
    assert.equal(saturday.length, sunday.length);
    ok(await book(client, "cal-paris", sunday[0]!), 201, "09:00 local books");
    // 08:00 local (07:00Z) is before opening: not listed, and refused.
    const early = await book(client, "cal-paris", "2026-10-25T07:00:00Z");
    assert.equal(early.body.code, "OUTSIDE_AVAILABILITY");

    // PUT with another zone moves the calendar: its hours are read there from now on.
    ok(
      await client.send("PUT", "/calendars/cal-paris", { as, body: { timeZone: "UTC" } }),
      200,
      "move to UTC",
    );
    const utc = await freeStarts(
      client,
      "cal-paris",
      "2026-10-26T00:00:00Z",
      "2026-10-27T00:00:00Z",
    );
    assert.equal(utc[0], "2026-10-26T09:00:00.000Z");
    const unknown = await client.send("PUT", "/calendars/cal-paris", {
      as,
      body: { timeZone: "Mars/Olympus" },
    });
    assert.equal(unknown.status, 422, unknown.text);
    assert.equal(unknown.body.code, "VALIDATION_FAILED");
  },
  { now: "2026-10-15T00:00:00Z" },
);

// The application's clock: Monday 2 March 2026, 08:00 UTC (two hours' notice, 60 days ahead).
e2e(
  "time off and bookings remove slots (and the neighbours a 30-minute booking would overlap); the notice and the horizon bound them",
  async ({ client }) => {
    await openCalendar(client, "cal-1", { opens: "06:00", closes: "12:00" });
    const day = (date: string) => [`${date}T00:00:00Z`, `${date}T23:59:00Z`] as const;

    // Monday: nothing before 10:00 (two hours' notice); the last 30-minute slot is 11:30.
    const monday = await freeStarts(client, "cal-1", ...day("2026-03-02"));
    assert.deepEqual(monday.map(hhmm), [
      "10:00",
      "10:15",
      "10:30",
      "10:45",
      "11:00",
      "11:15",
      "11:30",
    ]);
    assert.equal(
      (await book(client, "cal-1", "2026-03-02T09:45:00Z")).body.code,
      "BOOKING_TOO_LATE",
    );

    // Tuesday, with an hour of time off: the slots over it are gone.
    ok(
      await client.send("POST", "/calendars/cal-1/time-off", {
        as,
        body: {
          startsAt: "2026-03-03T10:00:00Z",
          endsAt: "2026-03-03T11:00:00Z",
          reason: "meeting",
        },
      }),
      201,
      "time off",
    );
    const tuesday = (await freeStarts(client, "cal-1", ...day("2026-03-03"))).map(hhmm);
    for (const gone of ["09:45", "10:00", "10:15", "10:30", "10:45"]) {
      assert.ok(!tuesday.includes(gone), `${gone} overlaps the time off`);
    }
    assert.ok(tuesday.includes("09:30") && tuesday.includes("11:00"));
    assert.equal(
      (await book(client, "cal-1", "2026-03-03T10:15:00Z")).body.code,
      "OUTSIDE_AVAILABILITY",
    );

    // Wednesday, with a check-up booked at 09:00: 08:45, 09:00 and 09:15 are gone.
    const before = await freeStarts(client, "cal-1", ...day("2026-03-04"));
    ok(await book(client, "cal-1", "2026-03-04T09:00:00Z"), 201, "book 09:00");
    const after = await freeStarts(client, "cal-1", ...day("2026-03-04"));
    assert.deepEqual(
      before.filter((s) => !after.includes(s)).map(hhmm),
      ["08:45", "09:00", "09:15"],
    );
    assert.equal((await book(client, "cal-1", "2026-03-04T09:15:00Z")).body.code, "SLOT_TAKEN");
    ok(await book(client, "cal-1", "2026-03-04T09:30:00Z"), 201, "the next free slot books");

    // 1 May: the horizon is 08:00Z (60 days after now), the last start it accepts.
    const may = await freeStarts(client, "cal-1", ...day("2026-05-01"));
    assert.deepEqual(may.map(hhmm), [
      "06:00",
      "06:15",
      "06:30",
      "06:45",
      "07:00",
      "07:15",
      "07:30",
      "07:45",
      "08:00",
    ]);
    assert.equal(
      (await book(client, "cal-1", "2026-05-01T08:15:00Z")).body.code,
      "BOOKING_TOO_FAR",
    );
    ok(await book(client, "cal-1", "2026-05-01T08:00:00Z"), 201, "the horizon books");
  },
);

e2e(
  "another practice's calendar is unknown; a bad period or type is refused; the answer revalidates with its ETag",
  async ({ client }) => {
    await openCalendar(client, "cal-1", { opens: "09:00", closes: "17:00" });
    const elsewhere = { sub: "dr-no", roles: ["practitioner"], tenants: ["practice-2"] };
    ok(
      await client.send("PUT", "/calendars/cal-x", { as: elsewhere, tenant: "practice-2" }),
      201,
      "B",
    );
    const path = slotsPath("cal-1", "2026-03-03T00:00:00Z", "2026-03-04T00:00:00Z");

    const other = await client.send(
      "GET",
      slotsPath("cal-x", "2026-03-03T00:00:00Z", "2026-03-04T00:00:00Z"),
      { as: callers.patient },
    );
    assert.equal(other.status, 404);
    assert.equal(other.body.code, "UNKNOWN_CALENDAR");
    const refused = async (p: string, status: number, code: string) => {
      const answer = await client.send("GET", p, { as: callers.patient, tenant: practice });
      assert.equal(answer.status, status, answer.text);
      assert.equal(answer.body.code, code, answer.text);
    };
    await refused(
      slotsPath("cal-1", "2026-03-03T00:00:00Z", "2026-04-04T00:00:01Z"),
      422,
      "INVALID_PERIOD",
    );
    await refused(
      slotsPath("cal-1", "2026-03-03T00:00:00Z", "2026-03-03T00:00:00Z"),
      422,
      "INVALID_PERIOD",
    );
    await refused(
      slotsPath("cal-1", "2026-03-03T00:00:00Z", "2026-03-04T00:00:00Z", "surgery"),
      422,
      "UNKNOWN_APPOINTMENT_TYPE",
    );
    assert.equal(
      (await client.send(
        "GET",
        slotsPath("cal-1", "2026-03-03T00:00:00Z", "2026-04-03T00:00:00Z"),
        { as },
      )).status,
      200,
      "31 days is the longest period",
    );
    assert.equal((await client.send("GET", path, { as: callers.visitor })).status, 403);

    const first = ok(await client.send("GET", path, { as }), 200, "slots");
    const etag = first.headers.get("etag");
    assert.ok(etag, "an ETag");
    assert.match(first.headers.get("cache-control") ?? "", /private/);
    const again = await client.send("GET", path, { as, headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    ok(await book(client, "cal-1", "2026-03-03T10:00:00Z"), 201, "book");
    const changed = await client.send("GET", path, { as, headers: { "if-none-match": etag } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), etag);
  },
);
