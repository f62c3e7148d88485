import assert from "node:assert/strict";
import { defaultBookingRules } from "./calendar.ts";
import { freeSlots, type Period, type SlotFacts } from "./free-slots.ts";

const at = (iso: string) => new Date(iso);
const period = (from: string, until: string): Period => ({ startsAt: at(from), endsAt: at(until) });
const starts = (slots: Period[]) => slots.map((s) => s.startsAt.toISOString().slice(0, 16));

// A Monday, 09:00-12:00 UTC, asked on the Friday before.
const facts: SlotFacts = {
  from: at("2026-03-02T00:00:00Z"),
  until: at("2026-03-03T00:00:00Z"),
  now: at("2026-02-27T12:00:00Z"),
  rules: defaultBookingRules,
  timeZone: "UTC",
  durationMinutes: 30,
  open: [period("2026-03-02T09:00:00Z", "2026-03-02T12:00:00Z")],
  booked: [],
};

Deno.test("the slots of an open period: every grid start whose appointment ends within it", () => {
  const slots = freeSlots(facts);
  assert.equal(slots.length, 11, "09:00 to 11:30, every 15 minutes");
  assert.deepEqual(slots[0], period("2026-03-02T09:00:00Z", "2026-03-02T09:30:00Z"));
  assert.equal(starts(slots).at(-1), "2026-03-02T11:30");
});

Deno.test("a booked appointment removes its slot and the neighbours that would overlap it", () => {
  const slots = freeSlots({
    ...facts,
    booked: [period("2026-03-02T10:00:00Z", "2026-03-02T10:30:00Z")],
  });
  const listed = starts(slots);
  for (const taken of ["09:45", "10:00", "10:15"]) {
    assert.ok(!listed.includes(`2026-03-02T${taken}`), `${taken} overlaps the booking`);
  }
  assert.ok(listed.includes("2026-03-02T09:30") && listed.includes("2026-03-02T10:30"));
  assert.equal(slots.length, 8);
});

Deno.test("no slot inside the minimum notice, none beyond the horizon (its last instant is in)", () => {
  const soon = freeSlots({ ...facts, now: at("2026-03-02T08:30:00Z") });
  assert.equal(starts(soon)[0], "2026-03-02T10:30", "two hours' notice");
  const far = freeSlots({
    ...facts,
    now: at("2024-12-31T10:00:00Z"),
    rules: { ...defaultBookingRules, horizonDays: 425 },
  });
  // 425 days after 2024-12-31T10:00Z is 2026-03-01T10:00Z: all of Monday is beyond the horizon.
  assert.deepEqual(far, []);
  const edge = freeSlots({ ...facts, now: at("2026-01-01T10:00:00Z") });
  // 60 days after 2026-01-01T10:00Z is 2026-03-02T10:00Z: the last start accepted.
  assert.deepEqual(starts(edge), [
    "2026-03-02T09:00",
    "2026-03-02T09:15",
    "2026-03-02T09:30",
    "2026-03-02T09:45",
    "2026-03-02T10:00",
  ]);
});

Deno.test("slots start in [from, until) and lie within one open period", () => {
  const slots = freeSlots({
    ...facts,
    from: at("2026-03-02T10:00:00Z"),
    until: at("2026-03-02T11:00:00Z"),
    open: [
      period("2026-03-02T09:00:00Z", "2026-03-02T10:20:00Z"),
      period("2026-03-02T10:20:00Z", "2026-03-02T12:00:00Z"),
    ],
  });
  // 10:00 and 10:15 would span both periods (two windows); 10:30 and 10:45 lie within the second.
  assert.deepEqual(starts(slots), ["2026-03-02T10:30", "2026-03-02T10:45"]);
});

Deno.test("in Paris, a 09:00-17:00 day has slots from 09:00 local both sides of the change", () => {
  const paris = (day: string, open: Period) =>
    freeSlots({
      ...facts,
      timeZone: "Europe/Paris",
      now: at("2026-03-20T00:00:00Z"),
      from: at(`${day}T00:00:00Z`),
      until: at(`${day}T23:00:00Z`),
      open: [open],
    });
  const before = paris("2026-03-28", period("2026-03-28T08:00:00Z", "2026-03-28T16:00:00Z"));
  const after = paris("2026-03-29", period("2026-03-29T07:00:00Z", "2026-03-29T15:00:00Z"));
  assert.equal(starts(before)[0], "2026-03-28T08:00");
  assert.equal(starts(after)[0], "2026-03-29T07:00");
  assert.equal(before.length, 31);
  assert.equal(after.length, 31);
});
