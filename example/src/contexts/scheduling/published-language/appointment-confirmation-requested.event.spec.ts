import assert from "node:assert/strict";
import { AppointmentConfirmationRequested } from "./appointment-confirmation-requested.event.ts";

const payload = {
  appointmentId: "a1",
  calendarId: "cal-1",
  patientId: "p1",
  startsAt: "2026-03-02T10:00:00Z",
  releasedAt: "2026-03-02T08:00:00Z",
};

Deno.test("AppointmentConfirmationRequested is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await AppointmentConfirmationRequested.create(payload);
  assert.equal(event.type, "scheduling.appointment.confirmation-requested");
  assert.equal(event.version, 1);
  await assert.rejects(
    () => AppointmentConfirmationRequested.create({ ...payload, releasedAt: 1 } as never),
    /payload of event 'scheduling.appointment.confirmation-requested' v1 is invalid/,
  );
});
