/**
 * Hostile input never reaches the database as a 500, over HTTP on PostgreSQL: every route of the
 * application (read from its OpenAPI document) gets, in each of its path parameters, query
 * parameters and body strings in turn, a NUL character, an unpaired surrogate (escaped in JSON),
 * an identifier far too long for an index, and in each date-time the instants PostgreSQL cannot
 * hold; every answer is a 4xx problem document (RFC 9457).
 */
import assert from "node:assert/strict";
import type { TokenClaims } from "../../src/platform/auth/tokens.ts";
import { assertProblem, type Client, documentedRoutes, e2e, practice } from "./e2e.ts";

const as: TokenClaims = {
  sub: "dr-who",
  roles: ["patient", "receptionist", "practitioner"],
  tenants: [practice],
};

/** The elements a valid request names. */
interface Valid {
  readonly appointmentId: string;
  readonly clearanceId: string;
}

/** For every route, a valid request: its path parameters, query and body. */
interface RouteInput {
  readonly params?: (v: Valid) => Record<string, string>;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
}

const calendar = { calendarId: "cal-1" };
const appointment = (v: Valid) => ({ appointmentId: v.appointmentId });
const windows = [{ weekday: 1, opens: "09:00", closes: "17:00" }];

const job = (v: Valid) => ({ jobId: v.clearanceId });
const processOf = { process: "scheduling.appointment-confirmation" };

const inputs: Record<string, RouteInput> = {
  // The jobs dashboard: its page and assets take no input; its JSON routes and event stream do.
  "GET /ops/jobs": {},
  "GET /ops/jobs/assets/dashboard.css": {},
  "GET /ops/jobs/assets/dashboard.js": {},
  "GET /ops/jobs/events": {},
  "GET /ops/jobs/queues": {},
  "GET /ops/jobs/jobs": {
    query: { queue: "scheduling", name: "scheduling.", subject: "cal-1", errorCode: "X" },
  },
  "GET /ops/jobs/jobs/{jobId}": { params: job },
  "POST /ops/jobs/jobs/{jobId}/cancellation": { params: job },
  "POST /ops/jobs/jobs/{jobId}/revival": { params: job },
  "POST /ops/jobs/queues/{queue}/revival": { params: () => ({ queue: "scheduling" }) },
  "POST /ops/jobs/purge": { body: { before: "2026-03-01T00:00:00Z" } },
  "GET /ops/jobs/schedules": {},
  "POST /ops/jobs/schedules/{name}/run": { params: () => ({ name: "scheduling.nothing" }) },
  "GET /ops/jobs/outbox": {},
  "GET /ops/jobs/activity": {},
  "GET /ops/jobs/workers": {},
  // The process managers' views (the appointment-confirmation process; its instance's key is
  // the appointment's id).
  "GET /ops/jobs/processes": {},
  "GET /ops/jobs/processes/{process}/instances": {
    params: () => processOf,
    query: { status: "active", limit: "10", after: "x" },
  },
  "GET /ops/jobs/processes/{process}/instances/{key}": {
    params: (v) => ({ ...processOf, key: v.appointmentId }),
    query: { tenantId: practice },
  },
  "POST /ops/jobs/processes/{process}/instances/{key}/end": {
    params: (v) => ({ ...processOf, key: v.appointmentId }),
    query: { tenantId: practice },
  },
  "GET /appointments": {
    query: { calendarId: "cal-1", from: "2026-03-02T00:00:00Z", until: "2026-03-03T00:00:00Z" },
  },
  "GET /appointments/{appointmentId}": { params: appointment },
  "POST /appointments": {
    body: {
      calendarId: "cal-1",
      appointmentTypeId: "checkup",
      startsAt: "2026-03-02T11:00:00Z",
      patientId: "pat-1",
    },
  },
  "POST /appointments/{appointmentId}/cancellation": {
    params: appointment,
    body: { reason: "ill" },
  },
  "POST /appointments/{appointmentId}/confirmation": { params: appointment },
  "PUT /appointments/{appointmentId}/notes": {
    params: appointment,
    body: { notes: "Prefers mornings.", version: 1 },
  },
  "POST /appointments/{appointmentId}/rescheduling": {
    params: appointment,
    body: { startsAt: "2026-03-02T12:00:00Z" },
  },
  "PUT /calendars/{calendarId}": { params: () => calendar, body: { timeZone: "Europe/Paris" } },
  "PUT /calendars/{calendarId}/appointment-types/{appointmentTypeId}": {
    params: () => ({ ...calendar, appointmentTypeId: "checkup" }),
    body: { name: "Check-up", durationMinutes: 30 },
  },
  "POST /calendars/{calendarId}/clearances": {
    params: () => calendar,
    body: { from: "2026-03-09T00:00:00Z", until: "2026-03-10T00:00:00Z", reason: "closed" },
  },
  "GET /calendars": {},
  "GET /calendars/{calendarId}": { params: () => calendar },
  "GET /calendars/{calendarId}/slots": {
    params: () => calendar,
    query: {
      from: "2026-03-02T00:00:00Z",
      until: "2026-03-03T00:00:00Z",
      appointmentTypeId: "checkup",
    },
  },
  "GET /calendars/{calendarId}/clearances/{clearanceId}": {
    params: (v) => ({ ...calendar, clearanceId: v.clearanceId }),
  },
  "PUT /calendars/{calendarId}/opening-hours": { params: () => calendar, body: { windows } },
  "POST /calendars/{calendarId}/time-off": {
    params: () => calendar,
    body: { startsAt: "2026-03-04T09:00:00Z", endsAt: "2026-03-04T10:00:00Z", reason: "leave" },
  },
  "GET /people/me": {},
  "POST /people/me": { body: { name: "Ada", email: "ada@example.org" } },
  "GET /people/invitations": {},
  "POST /people/invitations": { body: { email: "new@example.org", role: "patient" } },
  "GET /notifications": { query: { kind: "message", unread: "true", page: "1", pageSize: "5" } },
  "POST /notifications": { body: { recipientId: "pat-1", title: "Hi", body: "Hello" } },
  "GET /notifications/preferences": {},
};

const nul = "a\u0000b";
const loneSurrogate = "\ud800";
/** Too long for any index (PostgreSQL's btree rows end near 2.7 kB). */
const hugeInBody = "x".repeat(300_000);
/** The longest a URL may carry here (fetch refuses longer ones), still far beyond an index. */
const hugeInUrl = "x".repeat(60_000);
const extremeInstants = [
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59-14:00",
  "+010000-01-01T00:00:00Z",
];
const isInstant = (value: string) => /^\d{4}-\d\d-\d\dT/.test(value);

/** One request of the fuzz. */
interface Hostile {
  readonly what: string;
  readonly path: string;
  readonly body?: string;
}

/** Every string of a JSON value, by its path, and the value with that string replaced. */
function* strings(value: unknown, at: string[] = []): Generator<[string, (s: string) => unknown]> {
  if (typeof value === "string") {
    yield [at.join("/"), (s) => s];
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      for (const [where, put] of strings(item, [...at, String(i)])) {
        yield [where, (s) => value.map((x, j) => (j === i ? put(s) : x))];
      }
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      for (const [where, put] of strings(item, [...at, key])) {
        yield [where, (s) => ({ ...value, [key]: put(s) })];
      }
    }
  }
}

function pathOf(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
}

/** Every hostile variant of one route's valid request. */
function* hostile(route: string, input: RouteInput, valid: Valid): Generator<Hostile> {
  const template = route.split(" ")[1]!;
  const params = input.params?.(valid) ?? {};
  const query = new URLSearchParams(input.query ?? {}).toString();
  const url = (p: Record<string, string>, q = query) =>
    pathOf(template, p) + (q === "" ? "" : `?${q}`);
  const body = input.body === undefined ? undefined : JSON.stringify(input.body);
  for (const name of Object.keys(params)) {
    const variants: [string, string][] = [["NUL", "%00"], ["NUL", "x%00y"], ["huge", hugeInUrl]];
    for (const [label, value] of variants) {
      yield { what: `${label} in params.${name}`, path: url({ ...params, [name]: value }), body };
    }
  }
  for (const name of Object.keys(input.query ?? {})) {
    for (const [label, value] of [["NUL", "%00"], ["huge", hugeInUrl]]) {
      const q = Object.entries(input.query!).map(([k, v]) =>
        `${k}=${k === name ? value : encodeURIComponent(v)}`
      ).join("&");
      yield { what: `${label} in query.${name}`, path: url(params, q) };
    }
  }
  for (const [where, put] of strings(input.body)) {
    const original = where.split("/").reduce<unknown>(
      (v, k) => (v as Record<string, unknown>)[k],
      input.body,
    ) as string;
    const variants: [string, string][] = [
      ["NUL", nul],
      ["lone surrogate", loneSurrogate],
      ["lone surrogate", `ok${loneSurrogate}ok`],
      ["huge", hugeInBody],
      ...(isInstant(original)
        ? extremeInstants.map((instant): [string, string] => ["extreme date", instant])
        : []),
    ];
    for (const [label, value] of variants) {
      // JSON.stringify escapes NUL and unpaired surrogates (\u0000, \ud800), as a client would.
      yield {
        what: `${label} in body/${where}`,
        path: url(params),
        body: JSON.stringify(put(value)),
      };
    }
  }
}

async function setUp(client: Client): Promise<Valid> {
  const practitioner = as;
  assert.equal((await client.send("PUT", "/calendars/cal-1", { as: practitioner })).status, 201);
  await client.send("PUT", "/calendars/cal-1/appointment-types/checkup", {
    as: practitioner,
    body: { name: "Check-up", durationMinutes: 30 },
  });
  await client.send("PUT", "/calendars/cal-1/opening-hours", {
    as: practitioner,
    body: { windows },
  });
  const booked = await client.send("POST", "/appointments/", {
    as: practitioner,
    body: { calendarId: "cal-1", appointmentTypeId: "checkup", startsAt: "2026-03-02T10:00:00Z" },
  });
  assert.equal(booked.status, 201, booked.text);
  const clearance = await client.send("POST", "/calendars/cal-1/clearances", {
    as: practitioner,
    body: { from: "2026-03-09T00:00:00Z", until: "2026-03-10T00:00:00Z", reason: "closed" },
  });
  assert.equal(clearance.status, 202, clearance.text);
  return { appointmentId: booked.body.id, clearanceId: clearance.body.id };
}

e2e(
  "NUL, unpaired surrogates, huge ids and extreme dates in every input of every route answer 4xx problems, never 5xx",
  async (app) => {
    const { client } = app;
    assert.deepEqual(
      Object.keys(inputs).sort(),
      documentedRoutes(app),
      "every route of the application has its valid request here",
    );
    const valid = await setUp(client);
    let sent = 0;
    const codes = new Map<string, number>();
    for (const [route, input] of Object.entries(inputs)) {
      const method = route.split(" ")[0]!;
      for (const request of hostile(route, input, valid)) {
        const what = `${route}, ${request.what}`;
        const answer = await client.send(method, request.path, {
          as,
          ...(request.body === undefined ? {} : { rawBody: request.body }),
        });
        const code = assertProblem(answer, what);
        // An extreme but valid instant to purge before reaches the bus, which refuses the
        // caller (no jobs.operate): refused all the same.
        if (route === "POST /ops/jobs/purge" && code === "FORBIDDEN") continue;
        codes.set(code, (codes.get(code) ?? 0) + 1);
        sent++;
      }
    }
    assert.ok(sent > 100, `${sent} hostile requests`);
    // Refused at the edge or by the schemas, or by the database's checks translated: never
    // anything that says the request went through.
    for (const code of codes.keys()) {
      assert.ok(
        ["VALIDATION_FAILED", "INVALID_INPUT", "CONTENT_TOO_LARGE"].includes(code),
        `refused with ${code} (${[...codes].join(", ")})`,
      );
    }
    // The application still answers.
    const me = await client.send("GET", "/people/me", { as });
    assert.equal(me.status, 200, me.text);
  },
);
