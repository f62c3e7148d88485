import assert from "node:assert/strict";
import { CalendarOpened } from "./calendar-opened.event.ts";

Deno.test("CalendarOpened is built from its declaration and refuses a payload that breaks it", async () => {
  const event = await CalendarOpened.create({ calendarId: "cal-1", ownerId: "dr-who" });
  assert.equal(event.type, "scheduling.calendar.opened");
  assert.equal(event.version, 1);
  await assert.rejects(
    () => CalendarOpened.create({ calendarId: 1 } as never),
    /payload of event 'scheduling.calendar.opened' v1 is invalid/,
  );
});
