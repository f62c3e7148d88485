/**
 * Practices kept apart, over HTTP on PostgreSQL: two practices (A and B) with their calendars,
 * appointment types, opening hours, time off, appointments, clearances, profiles, invitations,
 * notifications and preferences; B's callers try every route of the application (read from its
 * OpenAPI document) on A's elements, with no `x-tenant-id`, with B's and with A's. Nothing of A is
 * read or changed (A's rows in every tenant-owned table are compared before and after), and every
 * row of every tenant-owned table carries its practice.
 */
import assert from "node:assert/strict";
import type { RunningTestPlatform } from "../../src/platform/platform-test.module.ts";
import type { TokenClaims } from "../../src/platform/auth/tokens.ts";
import { type Answer, assertProblem, type Client, documentedRoutes, e2e } from "./e2e.ts";

const A = "practice-a";
const B = "practice-b";
const allRoles = ["patient", "receptionist", "practitioner"];
const staffOf = (tenant: string, sub: string): TokenClaims => ({
  sub,
  roles: allRoles,
  tenants: [tenant],
});
const drA = staffOf(A, "dr-a");
const patA: TokenClaims = { sub: "pat-a", roles: ["patient"], tenants: [A] };
const drB = staffOf(B, "dr-b");
const patB: TokenClaims = { sub: "pat-b", roles: ["patient"], tenants: [B] };
/** B's attackers: one holding every role, one whose id is also A's patient's (ids can collide). */
const attackers: Record<string, TokenClaims> = {
  mallory: staffOf(B, "mallory"),
  twin: { sub: "pat-a", roles: allRoles, tenants: [B] },
};

// The application's clock: Monday 2 March 2026, 08:00 UTC.
const tuesday = (hhmm: string) => `2026-03-03T${hhmm}:00Z`;
const allWeek = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
  weekday,
  opens: "00:00",
  closes: "24:00",
}));

/** What a practice holds once set up: the ids of its elements. */
interface Practice {
  readonly calendarId: string;
  readonly appointmentId: string;
  readonly clearanceId: string;
}

function ok(answer: Answer, status: number, what: string): Answer {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  return answer;
}

/** A practice with one of everything, as its own staff and patient set it up. */
async function setUpPractice(
  client: Client,
  tenant: string,
  staff: TokenClaims,
  patient: TokenClaims,
): Promise<Practice> {
  const as = staff;
  const calendarId = `cal-${tenant}`;
  const c = `/calendars/${calendarId}`;
  ok(await client.send("PUT", c, { as, tenant }), 201, "open");
  ok(
    await client.send("PUT", `${c}/appointment-types/checkup`, {
      as,
      tenant,
      body: { name: "Check-up", durationMinutes: 30 },
    }),
    200,
    "type",
  );
  ok(
    await client.send("PUT", `${c}/opening-hours`, { as, tenant, body: { windows: allWeek } }),
    204,
    "hours",
  );
  ok(
    await client.send("POST", `${c}/time-off`, {
      as,
      tenant,
      body: { startsAt: tuesday("15:00"), endsAt: tuesday("16:00"), reason: `Leave of ${tenant}` },
    }),
    201,
    "time off",
  );
  const appointmentId = ok(
    await client.send("POST", "/appointments/", {
      as,
      tenant,
      body: {
        calendarId,
        appointmentTypeId: "checkup",
        startsAt: tuesday("10:00"),
        patientId: patient.sub,
      },
    }),
    201,
    "book",
  ).body.id;
  ok(
    await client.send("POST", "/people/me", {
      as: patient,
      tenant,
      body: { name: `Name of ${tenant}`, email: `pat@${tenant}.example` },
    }),
    201,
    "register",
  );
  ok(
    await client.send("POST", "/people/invitations", {
      as,
      tenant,
      body: { email: `invitee@${tenant}.example`, role: "patient" },
    }),
    201,
    "invite",
  );
  ok(
    await client.send("POST", "/notifications", {
      as,
      tenant,
      body: { recipientId: patient.sub, title: `Secret of ${tenant}`, body: `Only ${tenant}` },
    }),
    201,
    "message",
  );
  const clearanceId = ok(
    await client.send("POST", `${c}/clearances`, {
      as,
      tenant,
      body: { from: "2026-03-08T00:00:00Z", until: "2026-03-09T00:00:00Z", reason: "Sunday" },
    }),
    202,
    "clearance",
  ).body.id;
  return { calendarId, appointmentId, clearanceId };
}

/** A request of the attack: a route's path filled with A's elements, and a body. */
interface Attempt {
  readonly path: string;
  readonly body?: unknown;
}

/**
 * For every route, the request that would read or change A's elements. `own` routes touch only
 * the caller's own data (their profile, their practice's invitations and notifications): B's
 * caller may succeed on them in B, but sees nothing of A. `control` is what A's own staff get for
 * the same request (run at the end: it shows the request is well-formed and reaches A's element).
 */
interface RouteCase {
  readonly attempt: (a: Practice) => Attempt;
  readonly own?: true;
  readonly control?: number;
  /** Open to anyone, holding no data (the jobs dashboard's page): answered 200 in every mode. */
  readonly public?: true;
}

const confirmations = "/ops/jobs/processes/scheduling.appointment-confirmation";

const routeCases: Record<string, RouteCase> = {
  // The jobs dashboard: B's callers hold no jobs permission (403); its page holds no data.
  "GET /ops/jobs": { attempt: () => ({ path: "/ops/jobs" }), public: true },
  "GET /ops/jobs/assets/dashboard.css": {
    attempt: () => ({ path: "/ops/jobs/assets/dashboard.css" }),
    public: true,
  },
  "GET /ops/jobs/assets/dashboard.js": {
    attempt: () => ({ path: "/ops/jobs/assets/dashboard.js" }),
    public: true,
  },
  "GET /ops/jobs/events": { attempt: () => ({ path: "/ops/jobs/events" }) },
  "GET /ops/jobs/queues": { attempt: () => ({ path: "/ops/jobs/queues" }) },
  "GET /ops/jobs/jobs": { attempt: (a) => ({ path: `/ops/jobs/jobs?id=${a.clearanceId}` }) },
  "GET /ops/jobs/jobs/{jobId}": { attempt: (a) => ({ path: `/ops/jobs/jobs/${a.clearanceId}` }) },
  "POST /ops/jobs/jobs/{jobId}/cancellation": {
    attempt: (a) => ({ path: `/ops/jobs/jobs/${a.clearanceId}/cancellation` }),
  },
  "POST /ops/jobs/jobs/{jobId}/revival": {
    attempt: (a) => ({ path: `/ops/jobs/jobs/${a.clearanceId}/revival` }),
  },
  "POST /ops/jobs/queues/{queue}/revival": {
    attempt: () => ({ path: "/ops/jobs/queues/scheduling/revival" }),
  },
  "POST /ops/jobs/purge": {
    attempt: () => ({ path: "/ops/jobs/purge", body: { before: "2030-01-01T00:00:00Z" } }),
  },
  "GET /ops/jobs/schedules": { attempt: () => ({ path: "/ops/jobs/schedules" }) },
  "POST /ops/jobs/schedules/{name}/run": {
    attempt: () => ({ path: "/ops/jobs/schedules/scheduling.nothing/run" }),
  },
  "GET /ops/jobs/outbox": { attempt: () => ({ path: "/ops/jobs/outbox" }) },
  "GET /ops/jobs/activity": { attempt: () => ({ path: "/ops/jobs/activity" }) },
  "GET /ops/jobs/workers": { attempt: () => ({ path: "/ops/jobs/workers" }) },
  "GET /ops/jobs/processes": { attempt: () => ({ path: "/ops/jobs/processes" }) },
  "GET /ops/jobs/processes/{process}/instances": {
    attempt: () => ({ path: `${confirmations}/instances` }),
  },
  // A's appointment's confirmation (its instance's key is the appointment's id).
  "GET /ops/jobs/processes/{process}/instances/{key}": {
    attempt: (a) => ({ path: `${confirmations}/instances/${a.appointmentId}` }),
  },
  "POST /ops/jobs/processes/{process}/instances/{key}/end": {
    attempt: (a) => ({ path: `${confirmations}/instances/${a.appointmentId}/end` }),
  },
  "GET /calendars": { attempt: () => ({ path: "/calendars/" }), own: true },
  "GET /calendars/{calendarId}": {
    attempt: (a) => ({ path: `/calendars/${a.calendarId}` }),
    control: 200,
  },
  "GET /calendars/{calendarId}/clearances/{clearanceId}": {
    attempt: (a) => ({ path: `/calendars/${a.calendarId}/clearances/${a.clearanceId}` }),
    control: 200,
  },
  "GET /calendars/{calendarId}/slots": {
    attempt: (a) => ({
      path: `/calendars/${a.calendarId}/slots?appointmentTypeId=checkup` +
        `&from=${tuesday("00:00")}&until=${tuesday("23:00")}`,
    }),
    control: 200,
  },
  // B naming A's calendar's id opens B's own of that id (ids are each practice's own), as for a
  // free id: A's is not moved (its row is compared after), nor told to exist. (The spec removes
  // B's, so that the next attempts meet A's id alone again.)
  "PUT /calendars/{calendarId}": {
    attempt: (a) => ({ path: `/calendars/${a.calendarId}`, body: { timeZone: "Asia/Tokyo" } }),
    own: true,
    control: 200,
  },
  "PUT /calendars/{calendarId}/appointment-types/{appointmentTypeId}": {
    attempt: (a) => ({
      path: `/calendars/${a.calendarId}/appointment-types/checkup`,
      body: { name: "Check-up", durationMinutes: 30 },
    }),
    control: 200,
  },
  "PUT /calendars/{calendarId}/opening-hours": {
    attempt: (a) => ({
      path: `/calendars/${a.calendarId}/opening-hours`,
      body: { windows: allWeek },
    }),
    control: 204,
  },
  "POST /appointments": {
    attempt: (a) => ({
      path: "/appointments/",
      body: {
        calendarId: a.calendarId,
        appointmentTypeId: "checkup",
        startsAt: tuesday("11:00"),
        patientId: "pat-a",
      },
    }),
    control: 201,
  },
  "GET /appointments": { attempt: () => ({ path: "/appointments/" }), own: true },
  "GET /appointments/{appointmentId}": {
    attempt: (a) => ({ path: `/appointments/${a.appointmentId}` }),
    control: 200,
  },
  // Before the routes below change A's appointment: it is still at version 1.
  "PUT /appointments/{appointmentId}/notes": {
    attempt: (a) => ({
      path: `/appointments/${a.appointmentId}/notes`,
      body: { notes: "Seen by B?", version: 1 },
    }),
    control: 200,
  },
  "POST /appointments/{appointmentId}/confirmation": {
    attempt: (a) => ({ path: `/appointments/${a.appointmentId}/confirmation` }),
    control: 201,
  },
  "POST /appointments/{appointmentId}/rescheduling": {
    attempt: (a) => ({
      path: `/appointments/${a.appointmentId}/rescheduling`,
      body: { startsAt: tuesday("12:00") },
    }),
    control: 201,
  },
  // Over A's appointment: A's staff are told how many fall in it; B must not be.
  "POST /calendars/{calendarId}/time-off": {
    attempt: (a) => ({
      path: `/calendars/${a.calendarId}/time-off`,
      body: { startsAt: tuesday("09:00"), endsAt: tuesday("14:00"), reason: "Closed" },
    }),
    control: 409,
  },
  "POST /calendars/{calendarId}/clearances": {
    attempt: (a) => ({
      path: `/calendars/${a.calendarId}/clearances`,
      body: { from: tuesday("00:00"), until: "2026-03-04T00:00:00Z", reason: "Closed" },
    }),
    control: 202,
  },
  "POST /appointments/{appointmentId}/cancellation": {
    attempt: (a) => ({
      path: `/appointments/${a.appointmentId}/cancellation`,
      body: { reason: "Not mine" },
    }),
    control: 201,
  },
  "GET /people/me": { attempt: () => ({ path: "/people/me" }), own: true },
  "POST /people/me": {
    attempt: () => ({ path: "/people/me", body: { name: "Someone", email: "pat@b.example" } }),
    own: true,
  },
  "GET /people/invitations": { attempt: () => ({ path: "/people/invitations" }), own: true },
  // A's invitee's address: B's invitation is B's own, and must not meet A's (ALREADY_INVITED).
  "POST /people/invitations": {
    attempt: () => ({
      path: "/people/invitations",
      body: { email: `invitee@${A}.example`, role: "patient" },
    }),
    own: true,
  },
  "GET /notifications": { attempt: () => ({ path: "/notifications" }), own: true },
  "POST /notifications": {
    attempt: () => ({
      path: "/notifications",
      body: { recipientId: "pat-a", title: "Hello", body: "From B" },
    }),
    own: true,
  },
  "GET /notifications/preferences": {
    attempt: () => ({ path: "/notifications/preferences" }),
    own: true,
  },
};

/** The codes a refusal on A's element may have: none tells B anything of A. */
const refusalsOnA = new Set([
  "TENANT_REQUIRED",
  "FORBIDDEN",
  "UNKNOWN_CALENDAR",
  "APPOINTMENT_NOT_FOUND",
  "UNKNOWN_CLEARANCE",
]);

/**
 * The tables that hold practices' rows: every table of the contexts' schemas (the process
 * managers' instances and messages with them, in scheduling's, and each context's jobs in its own
 * `background_jobs`), but the ledgers and the registry of worker processes.
 */
async function tenantTables(app: RunningTestPlatform): Promise<string[]> {
  const rows = await app.db.sql`
    select table_schema || '.' || table_name as name from information_schema.tables
    where table_schema in ('analytics', 'availability', 'identity', 'notifications', 'scheduling')
      and table_name not in ('kit_migrations', 'kit_process_migrations', 'kit_jobs_migrations',
        'background_job_workers')
      and table_type = 'BASE TABLE'
    order by 1`;
  return rows.map((r) => r.name as string);
}

/** Every row of a practice, table by table (and its events in the outbox), as text. */
async function rowsOf(app: RunningTestPlatform, tenant: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await tenantTables(app)) {
    const rows = await app.db.sql.unsafe(
      `select * from ${table} where tenant_id = $1 order by 1, 2, 3`,
      [tenant],
    );
    out[table] = JSON.stringify(rows);
  }
  out.outbox = JSON.stringify(
    await app.db.sql`select id, type from kit_outbox where tenant_id = ${tenant} order by id`,
  );
  return out;
}

/** A's data as a reader would see it: none of it may appear in an answer to B. */
function secretsOf(a: Practice): string[] {
  return [
    a.appointmentId,
    a.clearanceId,
    `Name of ${A}`,
    `pat@${A}.example`,
    // (B invites A's invitee's address itself: A's invitation shows by its inviter.)
    `"${drA.sub}"`,
    `Secret of ${A}`,
    `Leave of ${A}`,
  ];
}

e2e(
  "tenant B's callers, with no tenant named, B's or A's, read and change nothing of tenant A on any route",
  async (app) => {
    const { client } = app;
    assert.deepEqual(
      Object.keys(routeCases).sort(),
      documentedRoutes(app),
      "every route of the application has its case here",
    );
    const a = await setUpPractice(client, A, drA, patA);
    await setUpPractice(client, B, drB, patB);
    await app.db.sql`
      insert into notifications.preferences (tenant_id, person_id, email, sms, reminder_hours_before)
      values (${A}, 'pat-a', false, true, 48)`;
    await app.application.events.relay.deliverDue();
    const before = await rowsOf(app, A);
    const secrets = secretsOf(a);

    for (const [name, as] of Object.entries(attackers)) {
      // B's own practice first: its own data answers, A's never appears.
      for (const [mode, tenant] of [["B's", B], ["no", null], ["A's", A]] as const) {
        for (const [route, routeCase] of Object.entries(routeCases)) {
          const [method] = route.split(" ");
          const { path, body } = routeCase.attempt(a);
          const what = `${name} with ${mode} tenant: ${route}`;
          const answer = await client.send(method!, path, {
            as,
            tenant,
            ...(body === undefined ? {} : { body }),
          });
          assert.ok(answer.status < 500, `${what}: ${answer.status} ${answer.text}`);
          // (A refusal may name what the request named, an id of A's: nothing else of A.)
          const asked = path + JSON.stringify(body ?? null);
          for (const secret of secrets.filter((s) => !asked.includes(s))) {
            assert.ok(!answer.text.includes(secret), `${what} reveals '${secret}'`);
          }
          if (routeCase.public) {
            assert.equal(answer.status, 200, what);
          } else if (mode === "A's") {
            // Not a member of A: the pipeline refuses before anything runs.
            assert.equal(assertProblem(answer, what), "FORBIDDEN", what);
          } else if (!routeCase.own) {
            // Naming B or nothing, the work runs for B: A's element is not found there.
            const code = assertProblem(answer, what);
            assert.ok(refusalsOnA.has(code) && code !== "TENANT_REQUIRED", `${what}: ${code}`);
          } else if (answer.status >= 400) {
            // The first caller's own data answers in B (the next meets B's own invitation).
            const code = assertProblem(answer, what);
            assert.ok(mode !== "B's" || name !== "mallory", `${what}: refused in B with ${code}`);
            assert.notEqual(code, "TENANT_REQUIRED", what);
          }
          if (route === "PUT /calendars/{calendarId}" && mode !== "A's") {
            assert.equal(answer.status, 201, `${what}: B opens its own: ${answer.text}`);
            await app.db.sql`
              delete from scheduling.calendars where tenant_id = ${B} and id = ${a.calendarId}`;
          }
          if (route === "GET /notifications/preferences" && answer.status === 200) {
            assert.equal(answer.body.reminderHoursBefore, 24, `${what}: A's preferences`);
          }
          if (route === "GET /people/me" && mode === "no") {
            // Naming no practice runs for the caller's only one: the same answer as naming B.
            const inB = await client.send("GET", path, { as, tenant: B });
            assert.equal(answer.status, 200, what);
            assert.deepEqual(answer.body, inB.body, `${what}: B's profile only`);
          }
        }
      }
    }
    await app.application.events.relay.deliverDue();
    const after = await rowsOf(app, A);
    for (const table of Object.keys(before)) {
      assert.equal(after[table], before[table], `${table}: A's rows are unchanged`);
    }

    // The same requests by A's own staff reach A's elements: the attempts were well-formed.
    for (const [route, routeCase] of Object.entries(routeCases)) {
      if (routeCase.control === undefined) continue;
      const [method] = route.split(" ");
      const { path, body } = routeCase.attempt(a);
      const answer = await client.send(method!, path, {
        as: drA,
        tenant: A,
        ...(body === undefined ? {} : { body }),
      });
      assert.equal(answer.status, routeCase.control, `A's staff: ${route}: ${answer.text}`);
    }

    // Every row of every tenant-owned table carries its practice.
    for (const table of await tenantTables(app)) {
      const [schema, name] = table.split(".");
      const [column] = await app.db.sql`
        select is_nullable from information_schema.columns
        where table_schema = ${schema!} and table_name = ${name!} and column_name = 'tenant_id'`;
      assert.equal(column?.is_nullable, "NO", `${table}.tenant_id is not null`);
      const [count] = await app.db.sql.unsafe(
        `select count(*)::int as n from ${table} where tenant_id is null or tenant_id = ''`,
      );
      assert.equal(count?.n, 0, `${table}: every row has a tenant`);
    }
    const [events] = await app.db.sql`
      select count(*)::int as n from kit_outbox where tenant_id is null`;
    assert.equal(events?.n, 0, "every event carries its practice");
  },
);

e2e(
  "a caller of two practices who names none is refused on every tenant route",
  async (app) => {
    const { client } = app;
    const a = await setUpPractice(client, A, drA, patA);
    const before = await rowsOf(app, A);
    const both: TokenClaims = { sub: "dr-both", roles: allRoles, tenants: [A, B] };
    for (const [route, routeCase] of Object.entries(routeCases)) {
      const [method] = route.split(" ");
      const { path, body } = routeCase.attempt(a);
      const answer = await client.send(method!, path, {
        as: both,
        tenant: null,
        ...(body === undefined ? {} : { body }),
      });
      if (routeCase.public) {
        assert.equal(answer.status, 200, route);
        continue;
      }
      if (route.includes(" /ops/jobs/")) {
        // The dashboard's routes: no role of this caller holds a jobs permission.
        assert.equal(assertProblem(answer, route), "FORBIDDEN", route);
        continue;
      }
      if (route === "GET /people/me") {
        // Who the caller is, from the token alone: no practice's profile.
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(answer.body, {
          id: "dr-both",
          roles: [...allRoles].sort(),
          tenants: [A, B],
          registered: false,
        });
        continue;
      }
      assert.equal(assertProblem(answer, route), "TENANT_REQUIRED", route);
      assert.equal(answer.status, 400, route);
    }
    const after = await rowsOf(app, A);
    for (const table of Object.keys(before)) {
      assert.equal(after[table], before[table], `${table}: A's rows are unchanged`);
    }
  },
);
