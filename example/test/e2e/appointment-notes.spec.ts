/**
 * An appointment's internal notes: the staff write them (PUT /appointments/:id/notes, with the
 * version they read) and read them; the patient reads their appointment without them and cannot
 * write them; another practice's staff do not find the appointment; notes written over a newer
 * version are refused, never lost. Every answer is checked against the document.
 */
import assert from "node:assert/strict";
import { callers, type Client, e2e, openAllWeekCalendar } from "./e2e.ts";

const elsewhere = { sub: "desk-9", roles: ["receptionist"], tenants: ["practice-2"] };

async function bookedAppointment(client: Client): Promise<string> {
  await openAllWeekCalendar(client, "cal-n");
  const booked = await client.send("POST", "/appointments/", {
    as: callers.receptionist,
    body: {
      calendarId: "cal-n",
      appointmentTypeId: "checkup",
      startsAt: "2026-03-02T10:00:00Z",
      patientId: callers.patient.sub,
    },
  });
  assert.equal(booked.status, 201, JSON.stringify(booked.body));
  return booked.body.id as string;
}

e2e(
  "the staff write and read an appointment's notes; the patient neither sees nor writes them",
  async ({ client }) => {
    const id = await bookedAppointment(client);
    const written = await client.send("PUT", `/appointments/${id}/notes`, {
      as: callers.receptionist,
      body: { notes: "  Prefers mornings; bring last year's X-ray.  ", version: 1 },
    });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.equal(written.body.notes, "Prefers mornings; bring last year's X-ray.");
    assert.equal(written.body.version, 2);

    for (const staff of [callers.receptionist, callers.practitioner]) {
      const read = await client.send("GET", `/appointments/${id}`, { as: staff });
      assert.equal(read.status, 200);
      assert.equal(read.body.notes, "Prefers mornings; bring last year's X-ray.");
    }
    const patientView = await client.send("GET", `/appointments/${id}`, { as: callers.patient });
    assert.equal(patientView.status, 200);
    assert.equal(patientView.body.patientId, callers.patient.sub);
    assert.ok(!("notes" in patientView.body), "the patient never sees the staff's notes");
    const listed = await client.send("GET", "/appointments/?calendarId=cal-n", {
      as: callers.receptionist,
    });
    assert.ok(!("notes" in listed.body.items[0]), "a listing carries no notes");

    const byPatient = await client.send("PUT", `/appointments/${id}/notes`, {
      as: callers.patient,
      body: { notes: "I am fine", version: 2 },
    });
    assert.equal(byPatient.status, 403);

    // Cleared with empty text.
    const cleared = await client.send("PUT", `/appointments/${id}/notes`, {
      as: callers.practitioner,
      body: { notes: "", version: 2 },
    });
    assert.equal(cleared.status, 200);
    assert.ok(!("notes" in cleared.body));
    assert.equal(cleared.body.version, 3);
  },
);

e2e(
  "notes over a newer version are refused (409), another practice's staff find nothing (404), overlong notes are named (422)",
  async ({ client }) => {
    const id = await bookedAppointment(client);
    const first = await client.send("PUT", `/appointments/${id}/notes`, {
      as: callers.receptionist,
      body: { notes: "Called to confirm.", version: 1 },
    });
    assert.equal(first.status, 200);
    const stale = await client.send("PUT", `/appointments/${id}/notes`, {
      as: callers.practitioner,
      body: { notes: "Allergic to latex.", version: 1 },
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, "CONCURRENT_UPDATE");
    const kept = await client.send("GET", `/appointments/${id}`, { as: callers.receptionist });
    assert.equal(kept.body.notes, "Called to confirm.", "the first writer's notes are kept");

    const foreign = await client.send("PUT", `/appointments/${id}/notes`, {
      as: elsewhere,
      tenant: "practice-2",
      body: { notes: "x", version: 2 },
    });
    assert.equal(foreign.status, 404);

    const long = await client.send("PUT", `/appointments/${id}/notes`, {
      as: callers.receptionist,
      body: { notes: "x".repeat(2001), version: 2 },
    });
    assert.equal(long.status, 422);
    assert.match(JSON.stringify(long.body), /notes/);
  },
);
