/**
 * The calendars read back: GET /calendars lists the practice's calendars, GET
 * /calendars/:calendarId reads one, each revalidated with an ETag; another practice's calendar is
 * neither listed nor found, and a caller without `calendar.read` is refused.
 */
import assert from "node:assert/strict";
import { callers, type Client, e2e, practice } from "./e2e.ts";

const as = callers.practitioner;
const elsewhere = { sub: "dr-no", roles: ["practitioner"], tenants: ["practice-2"] };

async function openCalendar(client: Client, id: string, tenant = practice): Promise<void> {
  const who = tenant === practice ? as : elsewhere;
  assert.equal((await client.send("PUT", `/calendars/${id}`, { as: who, tenant })).status, 201);
}

e2e(
  "GET /calendars lists the practice's calendars with their types; GET one reads it",
  async ({ client }) => {
    await openCalendar(client, "cal-b");
    await openCalendar(client, "cal-a");
    await openCalendar(client, "cal-x", "practice-2");
    const typed = await client.send("PUT", "/calendars/cal-a/appointment-types/checkup", {
      as,
      body: { name: "Check-up", durationMinutes: 30 },
    });
    assert.equal(typed.status, 200);

    for (const reader of [callers.patient, callers.receptionist, callers.practitioner]) {
      const listed = await client.send("GET", "/calendars/", { as: reader });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.calendars.map((calendar: { id: string }) => calendar.id),
        ["cal-a", "cal-b"],
        "sorted by id, and only the practice's",
      );
    }
    const one = await client.send("GET", "/calendars/cal-a", { as: callers.patient });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, {
      id: "cal-a",
      ownerId: "dr-who",
      timeZone: "UTC",
      rules: { slotMinutes: 15, minimumNoticeMinutes: 120, horizonDays: 60, patientLimit: 3 },
      appointmentTypes: [{ id: "checkup", name: "Check-up", durationMinutes: 30 }],
    });

    // Another practice's calendar is not found, even by its id.
    const other = await client.send("GET", "/calendars/cal-x", { as: callers.patient });
    assert.equal(other.status, 404);
    assert.equal(other.body.code, "UNKNOWN_CALENDAR");
    // A caller without calendar.read is refused.
    const visitor = await client.send("GET", "/calendars/", { as: callers.visitor });
    assert.equal(visitor.status, 403);
  },
);

e2e(
  "GET /calendars/:calendarId answers 304 to its ETag until the calendar changes",
  async ({ client }) => {
    await openCalendar(client, "cal-a");
    const first = await client.send("GET", "/calendars/cal-a", { as });
    const etag = first.headers.get("etag");
    assert.ok(etag, "an ETag");
    const again = await client.send("GET", "/calendars/cal-a", {
      as,
      headers: { "if-none-match": etag },
    });
    assert.equal(again.status, 304);
    await client.send("PUT", "/calendars/cal-a/appointment-types/checkup", {
      as,
      body: { name: "Check-up", durationMinutes: 30 },
    });
    const changed = await client.send("GET", "/calendars/cal-a", {
      as,
      headers: { "if-none-match": etag },
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), etag);
  },
);
