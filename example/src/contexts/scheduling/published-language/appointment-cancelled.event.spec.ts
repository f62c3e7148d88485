import assert from "node:assert/strict";
import { AppointmentCancelled } from "./appointment-cancelled.event.ts";

Deno.test("AppointmentCancelled is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await AppointmentCancelled.create({
    appointmentId: "a1",
    calendarId: "cal-1",
    patientId: "p1",
    startsAt: "2026-03-02T10:00:00Z",
    reason: "ill",
  });
  assert.equal(event.type, "scheduling.appointment.cancelled");
  assert.equal(event.version, 1);
  await assert.rejects(
    () =>
      AppointmentCancelled.create(
        {
          ...{
            appointmentId: "a1",
            calendarId: "cal-1",
            patientId: "p1",
            startsAt: "2026-03-02T10:00:00Z",
            reason: "ill",
          },
          startsAt: 1,
        } as never,
      ),
    /payload of event 'scheduling.appointment.cancelled' v1 is invalid/,
  );
});
