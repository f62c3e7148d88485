import assert from "node:assert/strict";
import { instantAt, localDate, weekdayOf } from "./wall-clock.ts";

Deno.test("the date and weekday of an instant are the zone's", () => {
  const instant = new Date("2026-03-01T23:30:00Z"); // Sunday in UTC, Monday in Paris
  assert.equal(localDate(instant, "UTC").toString(), "2026-03-01");
  assert.equal(weekdayOf(localDate(instant, "UTC")), 0);
  assert.equal(localDate(instant, "Europe/Paris").toString(), "2026-03-02");
  assert.equal(weekdayOf(localDate(instant, "Europe/Paris")), 1);
});

Deno.test("a wall-clock time is the instant of the zone's offset that day", () => {
  const paris = (date: string, minutes: number) =>
    instantAt(Temporal.PlainDate.from(date), minutes, "Europe/Paris").toISOString();
  assert.equal(paris("2026-03-28", 9 * 60), "2026-03-28T08:00:00.000Z");
  assert.equal(paris("2026-03-29", 9 * 60), "2026-03-29T07:00:00.000Z");
  assert.equal(paris("2026-10-25", 9 * 60), "2026-10-25T08:00:00.000Z");
  // 1440 is the next midnight.
  assert.equal(paris("2026-03-02", 24 * 60), "2026-03-02T23:00:00.000Z");
  // 02:30 does not exist on 2026-03-29 (the clocks go from 02:00 to 03:00): read as 03:30.
  assert.equal(paris("2026-03-29", 2 * 60 + 30), "2026-03-29T01:30:00.000Z");
  // 02:30 happens twice on 2026-10-25: the earlier one.
  assert.equal(paris("2026-10-25", 2 * 60 + 30), "2026-10-25T00:30:00.000Z");
});
