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
  assert.equal(hours.isOpen(at("2026-03-02T09:00:00Z"), at("2026-03-02T09:30:00Z"), "UTC"), true);
  assert.equal(hours.isOpen(at("2026-03-02T16:45:00Z"), at("2026-03-02T17:15:00Z"), "UTC"), false);
  assert.equal(hours.isOpen(at("2026-03-03T10:00:00Z"), at("2026-03-03T10:30:00Z"), "UTC"), false);
});

Deno.test("time off closes the calendar over its period", () => {
  const hours = mondays();
  hours.addTimeOff({
    id: "t1",
    startsAt: at("2026-03-02T12:00:00Z"),
    endsAt: at("2026-03-02T13:00:00Z"),
    reason: "lunch",
  }, []);
  assert.equal(hours.isOpen(at("2026-03-02T12:30:00Z"), at("2026-03-02T13:00:00Z"), "UTC"), false);
  assert.equal(hours.isOpen(at("2026-03-02T13:00:00Z"), at("2026-03-02T13:30:00Z"), "UTC"), true);
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

// Europe/Paris: UTC+1 in winter, UTC+2 from 2026-03-29 02:00 (local) to 2026-10-25 03:00 (local).
function parisDays(): OpeningHours {
  const hours = OpeningHours.none("cal-1");
  hours.setWeekly([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    weekday,
    opensAt: 9 * 60,
    closesAt: 17 * 60,
  })));
  return hours;
}

Deno.test("windows are wall-clock times of the zone named: 09:00 in Paris is 08:00Z in winter", () => {
  const hours = mondays();
  assert.equal(
    hours.isOpen(at("2026-03-02T08:00:00Z"), at("2026-03-02T08:30:00Z"), "Europe/Paris"),
    true,
  );
  assert.equal(
    hours.isOpen(at("2026-03-02T16:00:00Z"), at("2026-03-02T16:30:00Z"), "Europe/Paris"),
    false,
  );
  // 00:30Z on a Monday is 09:30 in Tokyo (open) but 00:30 in UTC (closed).
  const [from, until] = [at("2026-03-02T00:30:00Z"), at("2026-03-02T01:00:00Z")];
  assert.equal(hours.isOpen(from, until, "Asia/Tokyo"), true);
  assert.equal(hours.isOpen(from, until, "UTC"), false);
});

Deno.test("the open periods of a 09:00-17:00 day shift by an hour in UTC across both changes of the clocks", () => {
  const hours = parisDays();
  const days = (from: string, until: string) =>
    hours.openPeriods(at(from), at(until), "Europe/Paris").map((p) =>
      `${p.startsAt.toISOString()}/${p.endsAt.toISOString()}`
    );
  assert.deepEqual(days("2026-03-28T00:00:00Z", "2026-03-30T00:00:00Z"), [
    "2026-03-28T08:00:00.000Z/2026-03-28T16:00:00.000Z",
    "2026-03-29T07:00:00.000Z/2026-03-29T15:00:00.000Z",
  ]);
  assert.deepEqual(days("2026-10-24T00:00:00Z", "2026-10-26T00:00:00Z"), [
    "2026-10-24T07:00:00.000Z/2026-10-24T15:00:00.000Z",
    "2026-10-25T08:00:00.000Z/2026-10-25T16:00:00.000Z",
  ]);
});

Deno.test("open periods are the windows less their time off, and agree with isOpen", () => {
  const hours = parisDays();
  hours.addTimeOff({
    id: "t1",
    startsAt: at("2026-03-02T11:00:00Z"),
    endsAt: at("2026-03-02T12:00:00Z"),
    reason: "lunch",
  }, []);
  const periods = hours.openPeriods(
    at("2026-03-02T00:00:00Z"),
    at("2026-03-03T00:00:00Z"),
    "Europe/Paris",
  );
  assert.deepEqual(periods.map((p) => [p.startsAt.toISOString(), p.endsAt.toISOString()]), [
    ["2026-03-02T08:00:00.000Z", "2026-03-02T11:00:00.000Z"],
    ["2026-03-02T12:00:00.000Z", "2026-03-02T16:00:00.000Z"],
  ]);
  for (
    let t = Date.parse("2026-03-02T06:00:00Z");
    t < Date.parse("2026-03-02T18:00:00Z");
    t += 15 * 60_000
  ) {
    const startsAt = new Date(t);
    const endsAt = new Date(t + 30 * 60_000);
    const within = periods.some((p) => p.startsAt <= startsAt && endsAt <= p.endsAt);
    assert.equal(hours.isOpen(startsAt, endsAt, "Europe/Paris"), within, startsAt.toISOString());
  }
});
