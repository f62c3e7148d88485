import assert from "node:assert/strict";
import { localGridInstants, onLocalGrid, timeZoneNamed } from "./time-zone.ts";

const iso = (dates: Date[]) => dates.map((d) => d.toISOString().slice(11, 16));

Deno.test("a zone is an IANA name the runtime knows, read in its canonical case", () => {
  assert.equal(timeZoneNamed("Europe/Paris"), "Europe/Paris");
  assert.equal(timeZoneNamed("europe/paris"), "Europe/Paris");
  assert.equal(timeZoneNamed("UTC"), "UTC");
  assert.equal(timeZoneNamed("Mars/Olympus"), undefined);
  assert.equal(timeZoneNamed("+01:00"), undefined);
  assert.equal(timeZoneNamed(""), undefined);
});

Deno.test("the grid is the zone's wall clock: whole minutes on the grid from its midnight", () => {
  // Kolkata is UTC+05:30: 05:30Z is 11:00 there.
  assert.equal(onLocalGrid(new Date("2026-03-02T05:30:00Z"), "Asia/Kolkata", 60), true);
  assert.equal(onLocalGrid(new Date("2026-03-02T06:00:00Z"), "Asia/Kolkata", 60), false);
  assert.equal(onLocalGrid(new Date("2026-03-02T06:00:00Z"), "UTC", 60), true);
  assert.equal(onLocalGrid(new Date("2026-03-02T06:00:30Z"), "UTC", 15), false);
});

Deno.test("grid instants skip the wall-clock hour the clocks jump over (Paris, 2026-03-29)", () => {
  const starts = localGridInstants(
    new Date("2026-03-29T00:00:00Z"), // 01:00 CET
    new Date("2026-03-29T02:00:00Z"), // 04:00 CEST
    "Europe/Paris",
    30,
  );
  // 01:00, 01:30 CET, then 03:00, 03:30 CEST: 02:00 and 02:30 never happen.
  assert.deepEqual(iso(starts), ["00:00", "00:30", "01:00", "01:30"]);
});

Deno.test("grid instants hold both passes of the wall-clock hour lived twice (Paris, 2026-10-25)", () => {
  const starts = localGridInstants(
    new Date("2026-10-24T23:30:00Z"), // 01:30 CEST
    new Date("2026-10-25T02:00:00Z"), // 03:00 CET
    "Europe/Paris",
    30,
  );
  // 01:30, 02:00, 02:30 CEST, then 02:00, 02:30 CET again.
  assert.deepEqual(iso(starts), ["23:30", "00:00", "00:30", "01:00", "01:30"]);
});
