/**
 * Appointments read back: GET /appointments pages the practice's appointments by start time with
 * filters and a keyset cursor (stable while others are booked), GET /appointments/:id reads one;
 * a patient lists and reads only their own, and only the staff see who booked an appointment.
 */
import assert from "node:assert/strict";
import { callers, type Client, e2e, openAllWeekCalendar } from "./e2e.ts";

const day = (date: string, hhmm: string) => `2026-03-${date}T${hhmm}:00Z`;

const openCalendar = (client: Client, id: string) => openAllWeekCalendar(client, id);

async function book(client: Client, calendarId: string, patientId: string, startsAt: string) {
  const answer = await client.send("POST", "/appointments/", {
    as: callers.receptionist,
    body: { calendarId, appointmentTypeId: "checkup", startsAt, patientId },
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.id as string;
}

/** Every page of a listing, following `next`. */
async function allPages(
  client: Client,
  query: string,
  reader = callers.receptionist,
  between?: (page: number) => Promise<void>,
): Promise<{ id: string; startsAt: string }[][]> {
  const pages: { id: string; startsAt: string }[][] = [];
  let after: string | undefined;
  do {
    const answer = await client.send(
      "GET",
      `/appointments/?${query}${after === undefined ? "" : `&after=${after}`}`,
      { as: reader },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    pages.push(answer.body.items);
    after = answer.body.next;
    await between?.(pages.length);
  } while (after !== undefined);
  return pages;
}

e2e(
  "GET /appointments filters the practice's appointments; a patient sees only their own",
  async ({ client }) => {
    await openCalendar(client, "cal-1");
    await openCalendar(client, "cal-2");
    const mine = await book(client, "cal-1", callers.patient.sub, day("02", "10:00"));
    const theirs = await book(client, "cal-1", callers.otherPatient.sub, day("02", "11:00"));
    const elsewhere = await book(client, "cal-2", callers.patient.sub, day("03", "10:00"));
    const cancelled = await book(client, "cal-1", "pat-9", day("04", "10:00"));
    assert.equal(
      (await client.send("POST", `/appointments/${cancelled}/cancellation`, {
        as: callers.receptionist,
        body: { reason: "moved away" },
      })).status,
      201,
    );
    const ids = async (query: string, reader = callers.receptionist) =>
      (await allPages(client, query, reader)).flat().map((a) => a.id);

    assert.deepEqual(await ids("limit=100"), [mine, theirs, elsewhere, cancelled]);
    assert.deepEqual(await ids("calendarId=cal-1"), [mine, theirs, cancelled]);
    assert.deepEqual(await ids("status=cancelled"), [cancelled]);
    assert.deepEqual(
      await ids(`from=${day("02", "10:30")}&until=${day("04", "00:00")}`),
      [theirs, elsewhere],
    );
    assert.deepEqual(await ids(`patientId=${callers.otherPatient.sub}`), [theirs]);
    // A patient's listing is their own, whatever patientId says.
    assert.deepEqual(await ids("", callers.patient), [mine, elsewhere]);
    assert.deepEqual(await ids(`patientId=${callers.otherPatient.sub}`, callers.patient), []);

    // One appointment: the staff see who booked it, the patient does not.
    const byDesk = await client.send("GET", `/appointments/${mine}`, { as: callers.receptionist });
    assert.equal(byDesk.status, 200);
    assert.equal(byDesk.body.bookedBy, callers.receptionist.sub);
    assert.equal(byDesk.body.startsAt, "2026-03-02T10:00:00.000Z");
    const byPatient = await client.send("GET", `/appointments/${mine}`, { as: callers.patient });
    assert.equal(byPatient.status, 200);
    assert.equal(byPatient.body.id, mine);
    assert.equal("bookedBy" in byPatient.body, false, "who booked is the staff's business");
    // Another patient's appointment is not found, as a missing one.
    for (const id of [theirs, "no-such-appointment"]) {
      const refused = await client.send("GET", `/appointments/${id}`, { as: callers.patient });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.code, "APPOINTMENT_NOT_FOUND");
    }
    const forged = await client.send("GET", "/appointments/?after=not-a-cursor", {
      as: callers.receptionist,
    });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.code, "INVALID_CURSOR");
  },
);

e2e(
  "GET /appointments pages by start time: no appointment repeated or skipped while others are booked",
  async ({ client }) => {
    await openCalendar(client, "cal-1");
    const booked: string[] = [];
    for (let i = 0; i < 12; i++) {
      const hh = String(8 + i).padStart(2, "0");
      booked.push(await book(client, "cal-1", `pat-${i}`, day("10", `${hh}:00`)));
    }
    let added = 0;
    const pages = await allPages(client, "limit=5", callers.receptionist, async () => {
      // Between pages, one booking before everything listed so far and one after.
      added++;
      await book(client, "cal-1", `early-${added}`, day("09", `0${added}:00`));
      await book(client, "cal-1", `late-${added}`, day("11", `0${added}:00`));
    });
    const seen = pages.flat().map((a) => a.id);
    assert.equal(new Set(seen).size, seen.length, "no appointment on two pages");
    const original = seen.filter((id) => booked.includes(id));
    assert.deepEqual(original, booked, "every appointment there at the start, in order");
    const starts = pages.flat().map((a) => a.startsAt);
    assert.deepEqual(starts, [...starts].sort(), "by start time");
    assert.equal(pages[0]!.length, 5);
  },
);
