import assert from "node:assert/strict";
import { CalendarClearanceRequested } from "./calendar-clearance-requested.event.ts";

Deno.test("CalendarClearanceRequested is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await CalendarClearanceRequested.create({
    calendarId: "cal-1",
    clearanceId: "j1",
    appointmentIds: ["a1"],
    reason: "closed",
  });
  assert.equal(event.type, "scheduling.calendar-clearance.requested");
  assert.equal(event.version, 1);
  await assert.rejects(
    () => CalendarClearanceRequested.create({ calendarId: 1 } as never),
    /payload of event 'scheduling.calendar-clearance.requested' v1 is invalid/,
  );
});
