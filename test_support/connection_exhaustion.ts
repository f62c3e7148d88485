/**
 * What the connection-exhaustion fault specs share (issue #28), for an application served as its
 * own process on a private PostgreSQL (the example's `src/main.ts`, a generated project's): the
 * deadlines it runs with, the exhaustion itself (other clients take every free slot, the
 * application's backends are terminated so that it reconnects into a full server, then the slots
 * are freed), a freeze of the server, and the probes of what an operator relies on (readiness
 * over time, sessions left waiting on the client, SIGTERM within its deadline).
 *
 * Not published: specs import it by relative path.
 *
 * @module
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import type { PrivatePostgres } from "./private_postgres.ts";

/**
 * Short deadlines, so that a spec stays short: a statement answers within 3 s or fails with
 * QUERY_TIMEOUT, a connection comes free within 2 s, a connect takes at most 2 s; the relay is
 * stalled after 5 s without progress; SIGTERM ends the process within 6 s.
 */
export const exhaustionSettings: Readonly<Record<string, string>> = {
  DATABASE_POOL_SIZE: "10",
  DATABASE_CONNECT_TIMEOUT: "2s",
  DATABASE_ACQUIRE_TIMEOUT: "2s",
  DATABASE_STATEMENT_TIMEOUT: "2s",
  DATABASE_QUERY_TIMEOUT: "3s",
  RELAY_STALLED_AFTER: "5s",
  SHUTDOWN_TIMEOUT: "6s",
};

/**
 * The longest a request may take under {@linkcode exhaustionSettings}: a connection free in 2 s
 * (or a connect of 2 s after a reconnection wait of at most 1 s), then a statement without answer
 * for 3 s, plus a margin for a busy machine.
 */
export const answerWithinMs = 2_000 + 1_000 + 3_000 + 2_500;
/** The longest SIGTERM may take with a statement in flight: `SHUTDOWN_TIMEOUT` and a margin. */
export const shutdownWithinMs = 6_000 + 2_000;
/** The longest SIGTERM may take with nothing in flight (a graceful shutdown). */
export const gracefulWithinMs = 2_500;

/** Waits `ms`. */
export const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Settles with the promise's value, or "no answer" after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | "no answer"> {
  let timer!: ReturnType<typeof setTimeout>;
  try {
    return await Promise.race([
      promise,
      new Promise<"no answer">((resolve) => timer = setTimeout(() => resolve("no answer"), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The status of `GET <base>/health/ready`, 0 without an answer within 5 s. */
export async function readiness(base: string): Promise<number> {
  const status = await within(
    fetch(base + "/health/ready").then(async (r) => (await r.body?.cancel(), r.status)),
    5_000,
  ).catch(() => 0);
  return status === "no answer" ? 0 : status;
}

/** A readiness status seen, and when (ms since the spec's start). */
export interface ReadinessProbe {
  readonly at: number;
  readonly status: number;
}

/** Polls readiness every 200 ms until `until()`, keeping each status with its time. */
export function watchReadiness(
  base: string,
  startedAt: number,
  until: () => boolean,
): { seen: ReadinessProbe[]; done: Promise<void> } {
  const seen: ReadinessProbe[] = [];
  const done = (async () => {
    while (!until()) {
      const at = performance.now() - startedAt;
      seen.push({ at, status: await readiness(base) });
      await pause(200);
    }
  })();
  return { seen, done };
}

/** Polls readiness until it answers 200 or `ms` passed; answers the last status. */
export async function readyAgain(base: string, ms = 15_000): Promise<number> {
  let status = 0;
  const deadline = performance.now() + ms;
  while (status !== 200 && performance.now() < deadline) {
    status = await readiness(base);
    if (status !== 200) await pause(200);
  }
  return status;
}

/** A client of the server for the spec itself (application name `spec`), connected. */
export async function adminOf(server: PrivatePostgres): Promise<postgres.Sql> {
  const admin = postgres(server.url, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: "spec" },
  });
  await admin`select 1`; // connected before the slots run out
  return admin;
}

/** The application's sessions (every client backend but the spec's own and the intruders'). */
function appSessions(admin: postgres.Sql) {
  return admin`
    select pid, state, wait_event, extract(epoch from now() - state_change) as idle_for,
      left(query, 80) as query
    from pg_stat_activity
    where backend_type = 'client backend' and pid <> pg_backend_pid()
      and application_name not in ('spec', 'intruder')`;
}

/**
 * Sessions of the application waiting on it (`active` on `ClientRead`: a statement half-sent),
 * begun more than `s` seconds ago.
 */
export async function waitingOnClient(
  admin: postgres.Sql,
  s: number,
): Promise<Record<string, unknown>[]> {
  return (await appSessions(admin)).filter((row) =>
    row.state === "active" && row.wait_event === "ClientRead" && Number(row.idle_for) > s
  );
}

/** When the slots were taken (ms since the spec's start), and how many the intruders held. */
export interface Exhaustion {
  readonly from: number;
  readonly to: number;
  readonly intruders: number;
}

/**
 * Exhausts the server's connections, as an operator meets it: other clients (application name
 * `intruder`) open 5 sessions every 0.2 s for 8 s, taking every slot that comes free; 1.5 s in,
 * the application's backends are terminated and 30 more clients try at once; then, every 0.7 s,
 * its sessions that got a slot back are terminated again, four times. Then every intruder's
 * session is closed (the slots freed). Start the server with `max_connections` 60.
 */
export async function exhaustConnections(
  server: PrivatePostgres,
  admin: postgres.Sql,
  startedAt: number,
): Promise<Exhaustion> {
  const intruders: postgres.Sql[] = [];
  const attempts: Promise<unknown>[] = [];
  const from = performance.now() - startedAt;
  const intrude = (n: number) =>
    Promise.all(Array.from({ length: n }, async () => {
      const intruder = postgres(server.url, {
        max: 1,
        onnotice: () => {},
        connect_timeout: 2,
        connection: { application_name: "intruder" },
      });
      await intruder`select 1`.then(
        () => intruders.push(intruder),
        () => intruder.end({ timeout: 0 }),
      );
    }));
  try {
    const intruding = (async () => {
      const end = performance.now() + 8_000;
      while (performance.now() < end) {
        attempts.push(intrude(5));
        await pause(200);
      }
    })();
    await pause(1_500);
    const terminate = () =>
      admin`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()
          and application_name not in ('spec', 'intruder')`;
    const [[terminated]] = await Promise.all([terminate(), intrude(30)]);
    assert.ok(terminated!.n > 0, "the application's backends were terminated");
    for (let round = 0; round < 4; round++) {
      await pause(700);
      await terminate();
    }
    await intruding;
    await Promise.all(attempts); // each connects or gives up within its 2 s
    const held = intruders.length;
    assert.ok(held > 20, `the intruders held ${held} sessions`);
    return { from, to: performance.now() - startedAt, intruders: held };
  } finally {
    await Promise.all(attempts);
    await Promise.all(intruders.splice(0).map((sql) => sql.end({ timeout: 1 })));
  }
}

/**
 * Stops a process with `stop` (SIGTERM and wait), answering how long it took; fails past `ms`
 * with the end of what `output` gives.
 */
export async function stopWithin(
  stop: () => Promise<unknown>,
  ms: number,
  output: () => string,
): Promise<number> {
  const started = performance.now();
  const stopped = await within(stop(), ms + 5_000);
  const took = performance.now() - started;
  assert.notEqual(
    stopped,
    "no answer",
    `SIGTERM did not end the process: ${output().slice(-2000)}`,
  );
  assert.ok(took < ms, `SIGTERM ended the process in ${Math.round(took)} ms, over ${ms} ms`);
  return took;
}

/**
 * Freezes the server: SIGSTOP to its postmaster first (no backend forked after), then to every
 * backend. Answers the PIDs, for {@linkcode thaw}.
 */
export async function freeze(server: PrivatePostgres): Promise<number[]> {
  const postmaster = await server.pid();
  assert.ok(postmaster !== undefined, "the server runs");
  Deno.kill(postmaster, "SIGSTOP");
  const children = await Deno.readTextFile(`/proc/${postmaster}/task/${postmaster}/children`);
  const backends = children.trim().split(/\s+/).filter((pid) => pid !== "").map(Number);
  for (const pid of backends) Deno.kill(pid, "SIGSTOP");
  return [postmaster, ...backends];
}

/** Sends SIGCONT to the processes {@linkcode freeze} stopped (those still there). */
export function thaw(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGCONT");
    } catch {
      // gone
    }
  }
}
