/**
 * The example application as a fleet: three API processes (`src/main.ts`, enqueueing only, each
 * relaying the outbox) and two workers (`apps/worker/main.ts`) on one PostgreSQL database of the
 * spec's own (created, then dropped), the jobs on that database or on Redis; a client sends each
 * request to the next API in turn. Under a booking load one API and one worker are killed
 * (SIGKILL) and others started. What holds for one process holds for the fleet:
 *
 * - idempotency keys: a request whose API died is retried with its key on another API, and the
 *   same booking sent again to another API replays the first answer; each key books once;
 * - versions: two writes of an appointment's notes over the same version sent at once to two APIs:
 *   one wins, the other is answered 409;
 * - tenancy: another practice's token sees none of it;
 * - jobs: each clearance requested during the run succeeds on its first attempt, every appointment
 *   it names cancelled;
 * - the outbox: every delivery delivered, each event's effect made once per handler (one
 *   notification per booking and per cancellation) although four relays ran and one was killed
 *   (the APIs run with `OUTBOX_LEASE=5s`, so that what the killed one had claimed is relayed by
 *   another within seconds).
 *
 * No assertion on time: waits are polls with deadlines.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Redis as IORedis } from "ioredis";
import { ignoreWithout } from "../../../test_support/services.ts";
import { until } from "../../../test_support/until.ts";
import { signToken, type TokenClaims } from "../../src/platform/auth/tokens.ts";
import { migrate } from "../../src/platform/database/migrate.ts";
import {
  type FleetDatabase,
  type FleetProcess,
  startProcess,
  stopAll,
  withFleetDatabase,
} from "../../../test_support/fleet_processes.ts";

const apiProgram = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const workerProgram = fileURLToPath(new URL("../../apps/worker/main.ts", import.meta.url));
const secret = "fleet-specs-secret-0123456789-abcdefghij";
const day = 86_400_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const practitioner: TokenClaims = {
  sub: "dr-fleet",
  roles: ["practitioner"],
  tenants: ["practice-1"],
};
const receptionist: TokenClaims = {
  sub: "desk-fleet",
  roles: ["receptionist"],
  tenants: ["practice-1"],
};
const operator: TokenClaims = { sub: "ops-fleet", roles: ["operator"], tenants: ["practice-1"] };
const otherPractice: TokenClaims = {
  sub: "desk-other",
  roles: ["receptionist", "practitioner"],
  tenants: ["practice-2"],
};

interface Api {
  readonly process: FleetProcess;
  readonly base: string;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

const tokens = new Map<string, Promise<string>>();
function token(claims: TokenClaims): Promise<string> {
  let signed = tokens.get(claims.sub);
  if (signed === undefined) {
    tokens.set(claims.sub, signed = signToken(new TextEncoder().encode(secret), claims));
  }
  return signed;
}

/** Sends one request to one API; throws when no answer came (the process gone). */
async function call(
  api: Api,
  method: string,
  path: string,
  options: { as: TokenClaims; body?: unknown; key?: string },
): Promise<Answer> {
  const headers = new Headers({
    authorization: `Bearer ${await token(options.as)}`,
    "x-tenant-id": options.as.tenants![0]!,
  });
  if (options.key !== undefined) headers.set("idempotency-key", options.key);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(api.base + path, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text.length > 0 ? JSON.parse(text) : {},
    headers: response.headers,
  };
}

/** The APIs in turn: each request to the next live one, retried on the next when one dies. */
class Fleet {
  readonly apis: Api[] = [];
  #next = 0;
  /** Requests that got no answer (their API killed), retried on another. */
  failovers = 0;

  async send(
    method: string,
    path: string,
    options: { as: TokenClaims; body?: unknown; key?: string },
  ): Promise<Answer & { api: Api }> {
    for (let tries = 0; tries < 20; tries++) {
      const live = this.apis.filter((api) => api.process.alive());
      const api = live[this.#next++ % live.length]!;
      try {
        return { ...await call(api, method, path, options), api };
      } catch {
        this.failovers++;
        await pause(50);
      }
    }
    throw new Error(`${method} ${path}: no API answered`);
  }
}

async function openCalendar(fleet: Fleet, calendarId: string): Promise<void> {
  const as = practitioner;
  const opened = await fleet.send("PUT", `/calendars/${calendarId}`, { as });
  assert.equal(opened.status, 201, JSON.stringify(opened.body));
  const type = await fleet.send("PUT", `/calendars/${calendarId}/appointment-types/quick`, {
    as,
    body: { name: "Quick", durationMinutes: 15 },
  });
  assert.equal(type.status, 200);
  const windows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    weekday,
    opens: "00:00",
    closes: "24:00",
  }));
  const hours = await fleet.send("PUT", `/calendars/${calendarId}/opening-hours`, {
    as,
    body: { windows },
  });
  assert.equal(hours.status, 204);
}

interface Booking {
  readonly key: string;
  readonly patientId: string;
  readonly calendarId: string;
  readonly ids: Set<string>;
}

/** Books one slot with its key, retried (same key, next API) until answered 201. */
async function book(fleet: Fleet, calendarId: string, slot: number, first: number) {
  const booking: Booking = {
    key: crypto.randomUUID(),
    patientId: `${calendarId}-patient-${slot}`,
    calendarId,
    ids: new Set(),
  };
  const body = {
    calendarId,
    appointmentTypeId: "quick",
    startsAt: new Date(first + slot * 15 * 60_000).toISOString(),
    patientId: booking.patientId,
  };
  const as = receptionist;
  let by: Api | undefined;
  for (let tries = 0; booking.ids.size === 0; tries++) {
    const answer = await fleet.send("POST", "/appointments/", { as, body, key: booking.key });
    if (answer.status === 201) {
      booking.ids.add(answer.body.id as string);
      by = answer.api;
    } else {
      assert.ok(
        tries < 50,
        `booking ${booking.key}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
      await pause(100);
    }
  }
  return { booking, body, by: by! };
}

async function apiFleet(db: FleetDatabase, jobsEnv: Record<string, string>): Promise<void> {
  const base = {
    DATABASE_URL: db.url,
    JWT_SECRET: secret,
    DATABASE_POOL_SIZE: "4",
    SHUTDOWN_TIMEOUT: "3s",
    ...jobsEnv,
  };
  const startApi = async (name: string): Promise<Api> => {
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    const process = await startProcess(
      name,
      apiProgram,
      // A short outbox lease: the deliveries the killed API's relay claimed go to the others
      // 5 s after its claim instead of the default 30 s.
      { ...base, PORT: String(port), JOBS: "off", OUTBOX_LEASE: "5s" },
      "scheduling API on",
    );
    return { process, base: `http://127.0.0.1:${port}` };
  };
  const startWorker = (name: string) => startProcess(name, workerProgram, base, "worker started");
  const fleet = new Fleet();
  const workers: FleetProcess[] = [];
  try {
    // The database migrated here (each process finds it so), the processes started together.
    await migrate(db.sql);
    const [api1, api2, api3, w1, w2] = await Promise.all([
      startApi("api-1"),
      startApi("api-2"),
      startApi("api-3"),
      startWorker("worker-1"),
      startWorker("worker-2"),
    ]);
    fleet.apis.push(api1!, api2!, api3!);
    workers.push(w1!, w2!);
    const calendars = ["fleet-a", "fleet-b", "fleet-c"];
    const clearing = ["clear-a", "clear-b", "clear-c"];
    for (const id of [...calendars, ...clearing]) await openCalendar(fleet, id);
    const first = Math.ceil(Date.now() / day) * day + day;

    // The load: one booking loop per calendar; api-2 and worker-1 killed, api-4 and worker-3
    // started; each fifth booking sent again to another API than the one that booked it, which
    // must replay its answer.
    const bookings: Booking[] = [];
    const replays: { booking: Booking; answer: Answer }[] = [];
    let stop = false;
    const loops = calendars.map(async (calendarId) => {
      for (let slot = 0; !stop; slot++) {
        const { booking, body, by } = await book(fleet, calendarId, slot, first);
        bookings.push(booking);
        const other = fleet.apis.find((api) => api !== by && api.process.alive());
        if (slot % 5 === 0 && other !== undefined) {
          try {
            const again = await call(other, "POST", "/appointments/", {
              as: receptionist,
              body,
              key: booking.key,
            });
            replays.push({ booking, answer: again });
          } catch {
            // that API was killed meanwhile
          }
        }
      }
    });
    const loadFailed = Promise.all(loops).then(() => undefined, (error: unknown) => error);
    const booked = (n: number) =>
      until(() => bookings.length >= n, `${n} bookings`, { ms: 30_000 });
    await booked(6);
    await fleet.apis[1]!.process.kill();
    await workers[0]!.kill();
    const replacements = Promise.all([startApi("api-4"), startWorker("worker-3")]);
    // The appointments the clearances will cancel, a day after the load's, and the clearances,
    // while the load goes on.
    const toClear = new Map<string, string[]>();
    for (const calendarId of clearing) {
      const ids: string[] = [];
      for (let slot = 0; slot < 4; slot++) {
        const { booking } = await book(fleet, calendarId, slot, first + day);
        ids.push(...booking.ids);
      }
      toClear.set(calendarId, ids);
    }
    const clearances: { calendarId: string; id: string }[] = [];
    for (const calendarId of clearing) {
      const answer = await fleet.send("POST", `/calendars/${calendarId}/clearances`, {
        as: practitioner,
        body: {
          from: new Date(first + day).toISOString(),
          until: new Date(first + 2 * day).toISOString(),
          reason: "fleet",
        },
      });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      clearances.push({ calendarId, id: answer.body.id as string });
    }
    const [api4, w3] = await replacements;
    fleet.apis.push(api4!);
    workers.push(w3!);
    const before = bookings.length;
    await booked(before + 15);
    stop = true;
    const failed = await loadFailed;
    if (failed !== undefined) throw failed;

    // Idempotency: each key booked once; sent again to another API, the first answer replayed.
    for (const booking of bookings) {
      assert.equal(booking.ids.size, 1, `key ${booking.key} answered one appointment`);
    }
    const [{ count }] = await db.sql<[{ count: number }]>`
      select count(*)::int as count from scheduling.appointments
      where calendar_id = any(${calendars})`;
    assert.equal(count, bookings.length, "one appointment per booking key");
    assert.ok(replays.length > 0);
    for (const { booking, answer } of replays) {
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body.id, [...booking.ids][0], "the replay answers the first booking");
      assert.equal(answer.headers.get("idempotent-replayed"), "true");
    }

    // Versions: the same version written at once through two APIs: one 200, one 409.
    const live = fleet.apis.filter((api) => api.process.alive());
    for (const booking of bookings.slice(0, 5)) {
      const id = [...booking.ids][0]!;
      const current = await call(live[0]!, "GET", `/appointments/${id}`, { as: receptionist });
      assert.equal(current.status, 200);
      const answers = await Promise.all(
        [live[1]!, live[2]!].map((api, i) =>
          call(api, "PUT", `/appointments/${id}/notes`, {
            as: receptionist,
            body: { notes: `writer ${i}`, version: current.body.version },
          })
        ),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409], JSON.stringify(answers));
      assert.equal(answers.find((a) => a.status === 409)!.body.code, "CONCURRENT_UPDATE");
    }

    // Tenancy: another practice's token, on every API, sees nothing of practice-1.
    for (const api of live) {
      const one = await call(api, "GET", `/appointments/${[...bookings[0]!.ids][0]}`, {
        as: otherPractice,
      });
      assert.equal(one.status, 404);
      const list = await call(api, "GET", "/appointments/?limit=100", { as: otherPractice });
      assert.equal(list.status, 200);
      const ours = new Set(bookings.flatMap((b) => [...b.ids]));
      assert.deepEqual(
        (list.body.items as { id: string }[]).filter((item) => ours.has(item.id)),
        [],
      );
      const listed = await call(api, "GET", "/calendars/", { as: otherPractice });
      assert.equal(listed.status, 200);
      const theirs = JSON.stringify(listed.body);
      for (const id of [...calendars, ...clearing]) assert.ok(!theirs.includes(`"${id}"`), id);
    }

    // Jobs: each clearance succeeded, on its first attempt; its appointments cancelled.
    await until(
      async () => {
        for (const { calendarId, id } of clearances) {
          const answer = await fleet.send("GET", `/calendars/${calendarId}/clearances/${id}`, {
            as: practitioner,
          });
          if (answer.body.status !== "succeeded") return false;
        }
        return true;
      },
      "every clearance succeeded",
      { ms: 30_000 },
    );
    for (const { id } of clearances) {
      const job = await fleet.send("GET", `/ops/jobs/jobs/${id}`, { as: operator });
      assert.equal(job.status, 200, JSON.stringify(job.body));
      assert.equal(job.body.status, "succeeded");
      assert.equal(job.body.attempts, 1, `clearance ${id} ran once`);
    }
    for (const [calendarId, ids] of toClear) {
      for (const id of ids) {
        const answer = await fleet.send("GET", `/appointments/${id}`, { as: practitioner });
        assert.equal(answer.body.status, "cancelled", `${calendarId}: ${id} cancelled`);
      }
    }

    // The outbox: every delivery made, none dead; one notification per booking and per
    // cancellation.
    // (The deliveries the killed API's relay had claimed wait for their lease, OUTBOX_LEASE 5 s.)
    await until(
      async () => {
        const [{ pending, dead }] = await db.sql<[{ pending: number; dead: number }]>`
        select count(*) filter (where delivered_at is null and dead_at is null)::int as pending,
          count(*) filter (where dead_at is not null)::int as dead
        from kit_outbox_deliveries`;
        assert.equal(dead, 0, "no outbox delivery dead");
        return pending === 0;
      },
      "every outbox delivery delivered",
      { ms: 45_000 },
    );
    const notified = await db.sql<{ kind: string; related_id: string; n: number }[]>`
      select kind, related_id, count(*)::int as n from notifications.notifications
      group by kind, related_id`;
    const times = new Map(notified.map((row) => [`${row.kind} ${row.related_id}`, row.n]));
    const cleared = [...toClear.values()].flat();
    for (const id of [...bookings.flatMap((b) => [...b.ids]), ...cleared]) {
      assert.equal(times.get(`appointment-booked ${id}`), 1, `one booking notification of ${id}`);
    }
    for (const id of cleared) {
      assert.equal(times.get(`appointment-cancelled ${id}`), 1, `one cancellation notice of ${id}`);
    }
    console.log(
      `  ${bookings.length} bookings over ${fleet.apis.length} APIs (${fleet.failovers} ` +
        `requests retried on another API), ${replays.length} replays, ${clearances.length} ` +
        `clearances by ${workers.length} workers`,
    );
  } finally {
    await stopAll([...fleet.apis.map((api) => api.process), ...workers]);
  }
}

Deno.test({
  name:
    "The example as a fleet on PostgreSQL (3 APIs, 2 workers; one of each killed, others started under a booking load): idempotency keys replay across APIs, versions 409, tenancy, jobs, outbox once per handler",
  ignore: ignoreWithout("DATABASE_URL"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => withFleetDatabase(Deno.env.get("DATABASE_URL")!, (db) => apiFleet(db, {})),
});

Deno.test({
  name:
    "The example as a fleet with its jobs on Redis (3 APIs, 2 workers; one of each killed, others started under a booking load): the same guarantees",
  ignore: ignoreWithout("DATABASE_URL") || ignoreWithout("REDIS_URL"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withFleetDatabase(Deno.env.get("DATABASE_URL")!, async (db) => {
      const url = Deno.env.get("REDIS_URL")!;
      const prefix = `fleet-${crypto.randomUUID()}:`;
      try {
        await apiFleet(db, { REDIS_URL: url, REDIS_PREFIX: prefix, REDIS_DURABILITY: "warn" });
      } finally {
        const redis = new IORedis(url);
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== "0");
        redis.disconnect();
      }
    }),
});
