import assert from "node:assert/strict";
import { isRefusal } from "@kit/kernel";
import { OpeningHours } from "./opening-hours.ts";

// 2026-03-02 is a Monday.
function mondays(): OpeningHours {
  const hours = OpeningHours.none("cal-1");
  hours.setWeekly([{ weekday: 1, opensAt: 9 * 60, closesAt: 17 * 60 }]);
  return hours;
}
const at = (iso: string) => new Date(iso);

Deno.test("a period inside a window of its weekday is open; one spilling over is not", () => {
  const hours = mondays();
  assert.equal(hours.isOpen(at("2026-03-02T09:00:00Z"), at("2026-03-02T09:30:00Z")), true);
  assert.equal(hours.isOpen(at("2026-03-02T16:45:00Z"), at("2026-03-02T17:15:00Z")), false);
  assert.equal(hours.isOpen(at("2026-03-03T10:00:00Z"), at("2026-03-03T10:30:00Z")), false);
});

Deno.test("time off closes the calendar over its period", () => {
  const hours = mondays();
  hours.addTimeOff({
    id: "t1",
    startsAt: at("2026-03-02T12:00:00Z"),
    endsAt: at("2026-03-02T13:00:00Z"),
    reason: "lunch",
  }, []);
  assert.equal(hours.isOpen(at("2026-03-02T12:30:00Z"), at("2026-03-02T13:00:00Z")), false);
  assert.equal(hours.isOpen(at("2026-03-02T13:00:00Z"), at("2026-03-02T13:30:00Z")), true);
});

Deno.test("time off over booked appointments is refused and names them", () => {
  assert.throws(
    () =>
      mondays().addTimeOff({
        id: "t1",
        startsAt: at("2026-03-02T09:00:00Z"),
        endsAt: at("2026-03-02T12:00:00Z"),
        reason: "training",
      }, [{ id: "a1" }]),
    (e) => isRefusal(e, "TIME_OFF_OVER_APPOINTMENTS"),
  );
});

Deno.test("overlapping windows of one weekday are refused", () => {
  assert.throws(
    () =>
      OpeningHours.none("c").setWeekly([
        { weekday: 1, opensAt: 540, closesAt: 720 },
        { weekday: 1, opensAt: 700, closesAt: 800 },
      ]),
    (e) => isRefusal(e, "INVALID_OPENING_HOURS"),
  );
});
