/**
 * Ids a client chooses are the practice's own, over HTTP on PostgreSQL: two practices open a
 * calendar of one id and each uses its own (types, hours, bookings at the same start); neither
 * squats the other's id nor learns from an answer that the other uses it; inside one practice, a
 * second person naming a taken id is refused with its own 409 code, which tells nothing of any
 * other practice.
 */
import assert from "node:assert/strict";
import type { TokenClaims } from "../../src/platform/auth/tokens.ts";
import { type Answer, assertProblem, type Client, e2e } from "./e2e.ts";

const one = "practice-1";
const two = "practice-2";
const drOne: TokenClaims = { sub: "dr-one", roles: ["practitioner"], tenants: [one] };
const drTwo: TokenClaims = { sub: "dr-two", roles: ["practitioner"], tenants: [two] };
const patOne: TokenClaims = { sub: "pat-one", roles: ["patient"], tenants: [one] };
const patTwo: TokenClaims = { sub: "pat-two", roles: ["patient"], tenants: [two] };

// The application's clock: Monday 2 March 2026, 08:00 UTC.
const tuesdayTen = "2026-03-03T10:00:00Z";

function ok(answer: Answer, status: number, what: string): Answer {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  return answer;
}

/** Opens `main-x` in a practice with a check-up of `minutes`, open all week, and books 10:00. */
async function useMainX(
  client: Client,
  tenant: string,
  as: TokenClaims,
  patient: TokenClaims,
  minutes: number,
): Promise<string> {
  const c = "/calendars/main-x";
  ok(await client.send("PUT", c, { as, tenant }), 201, `${tenant} opens main-x`);
  ok(
    await client.send("PUT", `${c}/appointment-types/checkup`, {
      as,
      tenant,
      body: { name: `Check-up of ${tenant}`, durationMinutes: minutes },
    }),
    200,
    `${tenant}'s type`,
  );
  const windows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    weekday,
    opens: "00:00",
    closes: "24:00",
  }));
  ok(
    await client.send("PUT", `${c}/opening-hours`, { as, tenant, body: { windows } }),
    204,
    `${tenant}'s hours`,
  );
  return ok(
    await client.send("POST", "/appointments/", {
      as: patient,
      tenant,
      body: { calendarId: "main-x", appointmentTypeId: "checkup", startsAt: tuesdayTen },
    }),
    201,
    `${tenant} books 10:00`,
  ).body.id;
}

e2e("two practices open a calendar of the same id and each uses its own", async (app) => {
  const { client } = app;
  // Practice 2 first: before, its id was global and practice 1 met UNKNOWN_CALENDAR for good.
  const bookedTwo = await useMainX(client, two, drTwo, patTwo, 30);
  const bookedOne = await useMainX(client, one, drOne, patOne, 45);
  assert.notEqual(bookedOne, bookedTwo);

  const seen = async (tenant: string, as: TokenClaims) =>
    ok(await client.send("GET", "/calendars/main-x", { as, tenant }), 200, `${tenant} reads`).body;
  const inOne = await seen(one, drOne);
  const inTwo = await seen(two, drTwo);
  assert.deepEqual(inOne.appointmentTypes.map((t: { name: string }) => t.name), [
    "Check-up of practice-1",
  ]);
  assert.deepEqual(inTwo.appointmentTypes.map((t: { name: string }) => t.name), [
    "Check-up of practice-2",
  ]);
  // Each practice sees its own booking at 10:00, not the other's.
  const list = async (tenant: string, as: TokenClaims) =>
    ok(await client.send("GET", "/appointments/?calendarId=main-x", { as, tenant }), 200, tenant)
      .body.items.map((a: { id: string }) => a.id);
  assert.deepEqual(await list(one, drOne), [bookedOne]);
  assert.deepEqual(await list(two, drTwo), [bookedTwo]);

  const rows = await app.db.sql`
    select tenant_id, owner_id from scheduling.calendars where id = 'main-x' order by tenant_id`;
  assert.deepEqual(rows.map((r) => [r.tenant_id, r.owner_id]), [[one, "dr-one"], [two, "dr-two"]]);
});

e2e(
  "PUT of an id another practice uses answers as for a free one; a duplicate in one practice is CALENDAR_TAKEN",
  async ({ client }) => {
    ok(await client.send("PUT", "/calendars/main-x", { as: drOne, tenant: one }), 201, "one");
    // No existence oracle: practice 2 naming practice 1's id and a free id get the same answer.
    const taken = ok(
      await client.send("PUT", "/calendars/main-x", { as: drTwo, tenant: two }),
      201,
      "two, practice 1's id",
    );
    const free = ok(
      await client.send("PUT", "/calendars/never-used", { as: drTwo, tenant: two }),
      201,
      "two, a free id",
    );
    assert.deepEqual(taken.body, { id: "main-x" });
    assert.deepEqual(free.body, { id: "never-used" });

    // The opener again: idempotent.
    ok(await client.send("PUT", "/calendars/main-x", { as: drOne, tenant: one }), 200, "again");
    // Someone else of practice 1 naming its taken id: refused, with a code of its own.
    const colleague: TokenClaims = { sub: "dr-colleague", roles: ["practitioner"], tenants: [one] };
    const duplicate = await client.send("PUT", "/calendars/main-x", {
      as: colleague,
      tenant: one,
      body: { timeZone: "Asia/Tokyo" },
    });
    assert.equal(duplicate.status, 409, duplicate.text);
    assert.equal(assertProblem(duplicate, "duplicate"), "CALENDAR_TAKEN");
    for (const secret of [two, "dr-two", "dr-one"]) {
      assert.ok(!duplicate.text.includes(secret), `the refusal names '${secret}'`);
    }
    // ...and the calendar did not move.
    const kept =
      ok(await client.send("GET", "/calendars/main-x", { as: drOne, tenant: one }), 200, "")
        .body;
    assert.equal(kept.timeZone, "UTC");
  },
);
