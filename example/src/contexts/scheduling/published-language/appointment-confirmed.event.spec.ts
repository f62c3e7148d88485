import assert from "node:assert/strict";
import { AppointmentConfirmed } from "./appointment-confirmed.event.ts";

Deno.test("AppointmentConfirmed is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await AppointmentConfirmed.create({
    appointmentId: "a1",
    calendarId: "cal-1",
    patientId: "p1",
    startsAt: "2026-03-02T10:00:00Z",
  });
  assert.equal(event.type, "scheduling.appointment.confirmed");
  assert.equal(event.version, 1);
  await assert.rejects(
    () =>
      AppointmentConfirmed.create(
        {
          ...{
            appointmentId: "a1",
            calendarId: "cal-1",
            patientId: "p1",
            startsAt: "2026-03-02T10:00:00Z",
          },
          startsAt: 1,
        } as never,
      ),
    /payload of event 'scheduling.appointment.confirmed' v1 is invalid/,
  );
});
