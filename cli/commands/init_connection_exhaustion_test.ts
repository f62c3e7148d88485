/**
 * A project made by `kit init` on its PostgreSQL platform under connection exhaustion and a frozen
 * server, as the example is in `example/test/faults/connection-exhaustion.spec.ts` (issue #28),
 * with the same machinery (`test_support/connection_exhaustion.ts`): one context and a route that
 * writes (the lending slice: `POST /loans`), `src/main.ts` served in its own process on a private
 * PostgreSQL of 60 connections with short deadlines (`DATABASE_*_TIMEOUT`, `RELAY_STALLED_AFTER`,
 * `SHUTDOWN_TIMEOUT`). While loans are opened over HTTP, other clients take every free slot, the
 * application's backends are terminated (it reconnects into a full server), then the slots are
 * freed: every request is answered within its deadline, every loan acknowledged is stored, no
 * session of the application is left waiting on it, readiness (`/health/ready`) was red meanwhile
 * and is green after, and SIGTERM ends the process at once. Then, on a second process, the server
 * is frozen: requests end at their deadline, readiness is red, and SIGTERM ends the process within
 * `SHUTDOWN_TIMEOUT` (exit code 1, `SHUTDOWN_DEADLINE`) while a statement never answers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SignJWT } from "jose";
import {
  adminOf,
  answerWithinMs,
  exhaustConnections,
  exhaustionSettings,
  freeze,
  gracefulWithinMs,
  pause,
  readiness,
  readyAgain,
  shutdownWithinMs,
  stopWithin,
  thaw,
  waitingOnClient,
  watchReadiness,
  within,
} from "../../test_support/connection_exhaustion.ts";
import {
  type PrivatePostgres,
  privatePostgresAvailable,
  withPrivatePostgres,
} from "../../test_support/private_postgres.ts";
import { type ServedProject, serveProject } from "./served_project.ts";
import { kitIn, lendingSlice } from "./test_project.ts";

const checkout = fileURLToPath(new URL("../../", import.meta.url));
const unavailable = !privatePostgresAvailable() && Deno.env.get("CI") !== "true";
const tokenEnv = {
  JWT_SECRET: "a-secret-of-the-exhaustion-test-0123456789",
  JWT_ISSUER: "kit-tests",
  JWT_AUDIENCE: "kit-tests-api",
};

/** A project with the lending slice (`POST /loans` opens a loan), made by kit in `parent`. */
async function lendingProject(parent: string): Promise<string> {
  const kit = async (cwd: string, ...args: string[]) => {
    const { result, out } = await kitIn(cwd, ...args);
    assert.equal(result, 0, `kit ${args.join(" ")}:\n${out}`);
  };
  await kit(parent, "init", "library", "--context", "lending:core", "--no-git", "--link", checkout);
  const dir = join(parent, "library");
  // The slice's first line makes the context, which init made already.
  for (const args of lendingSlice.slice(1)) await kit(dir, ...args);
  return dir;
}

/** An answer as the load saw it: its status, how long it took, when it was sent. */
interface Seen {
  readonly status: number;
  readonly ms: number;
  readonly at: number;
}

/**
 * The pause of a client after each loan acknowledged (a refused one is retried after 100 ms):
 * eight clients keep a steady load whose requests overlap, without taking every CPU of the
 * machine while the database is healthy (the pool of 10 is not saturated by 8 clients either way).
 */
const paceMs = 25;

/**
 * Opens loan after loan as a lender of branch-1, each retried with the same id until 201, until
 * `until()`, `paceMs` after each loan acknowledged; records every answer and the ids acknowledged.
 */
async function loanLoad(
  served: ServedProject,
  token: string,
  until: () => boolean,
  seen: Seen[],
  acknowledged: string[],
  startedAt: number,
): Promise<void> {
  const headers = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    "x-tenant-id": "branch-1",
  };
  while (!until()) {
    const loanId = crypto.randomUUID();
    for (let done = false; !done && !until();) {
      const sent = performance.now();
      let response: Response;
      try {
        response = await fetch(`${served.url}/loans`, {
          method: "POST",
          headers,
          body: JSON.stringify({ loanId }),
        });
      } catch (error) {
        throw new Error(`POST /loans got no answer:\n${served.output().slice(-3000)}`, {
          cause: error,
        });
      }
      await response.body?.cancel();
      seen.push({ status: response.status, ms: performance.now() - sent, at: sent - startedAt });
      // 409: the loan of an earlier try was stored, its answer lost.
      done = response.status === 201 || response.status === 409;
      if (done) acknowledged.push(loanId);
      await pause(done ? paceMs : 100);
    }
  }
}

function lenderToken(): Promise<string> {
  return new SignJWT({ sub: "ada", roles: ["lender"], tenants: ["branch-1"] })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(tokenEnv.JWT_ISSUER)
    .setAudience(tokenEnv.JWT_AUDIENCE)
    .setExpirationTime("10m")
    .sign(new TextEncoder().encode(tokenEnv.JWT_SECRET));
}

function serve(dir: string, server: PrivatePostgres): Promise<ServedProject> {
  return serveProject(dir, "src/main.ts", {
    DATABASE_URL: server.url,
    ...tokenEnv,
    ...exhaustionSettings,
  });
}

Deno.test({
  name:
    "a project made by kit init on PostgreSQL: connections exhausted, its backends terminated, slots freed, every request answered within its deadline, none left waiting on the client, readiness red meanwhile, SIGTERM in time; frozen, SIGTERM within SHUTDOWN_TIMEOUT",
  ignore: unavailable,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const parent = await Deno.makeTempDir({ prefix: "kit-exhaustion-" });
    try {
      const dir = await lendingProject(parent);
      const token = await lenderToken();
      await withPrivatePostgres(async (server) => {
        const admin = await adminOf(server);
        let app = await serve(dir, server);
        let stopped = false;
        let probing = true;
        let frozen: number[] = [];
        try {
          assert.equal(await readiness(app.url), 200, "ready once started");
          const live = await fetch(`${app.url}/health/live`);
          assert.deepEqual(await live.json(), { status: "ok" });
          // Its worker is registered with the host and process id its entry point gave.
          let workers: Record<string, unknown>[] = [];
          for (let tries = 0; workers.length === 0 && tries < 50; tries++) {
            workers = [...await admin`select host, pid from lending.background_job_workers`];
            if (workers.length === 0) await pause(100);
          }
          assert.equal(workers.length, 1, "one live worker");
          assert.equal(workers[0]!.host, Deno.hostname());
          assert.ok(Number(workers[0]!.pid) > 0, "its process id");

          // Exhaustion under load.
          const seen: Seen[] = [];
          const acknowledged: string[] = [];
          const startedAt = performance.now();
          const loads = Array.from(
            { length: 8 },
            () => loanLoad(app, token, () => stopped, seen, acknowledged, startedAt),
          );
          const load = Promise.all(loads).then(() => undefined, (error: unknown) => error);
          const probes = watchReadiness(app.url, startedAt, () => !probing);
          await pause(1_000);
          const exhausted = await exhaustConnections(server, admin, startedAt);
          assert.equal(await readyAgain(app.url), 200, "readiness green once the slots are free");
          await pause(2_000);
          stopped = true;
          const ended = await within(load, answerWithinMs + 2_000);
          assert.notEqual(ended, "no answer", "every request of the load was answered");
          if (ended !== undefined) throw ended;
          probing = false;
          await probes.done;

          assert.deepEqual(
            await waitingOnClient(admin, 3),
            [],
            "no session of the application waits on ClientRead",
          );
          const slow = seen.filter((answer) => answer.ms > answerWithinMs);
          assert.deepEqual(slow, [], `every answer within ${answerWithinMs} ms`);
          const others = seen.filter((answer) => ![201, 409, 503].includes(answer.status));
          assert.deepEqual(others, [], "only 201, 503 or 409 (stored by an earlier try)");
          assert.ok(seen.some((answer) => answer.status === 503), "requests answered 503");
          const red = probes.seen.filter((probe) =>
            probe.status !== 200 && probe.at >= exhausted.from && probe.at <= exhausted.to + 1_000
          );
          assert.ok(red.length > 0, "readiness red while the slots were taken");
          const [stored] = await admin`
            select count(*)::int as n from lending.loans where id = any(${acknowledged})`;
          assert.equal(stored!.n, acknowledged.length, "every loan acknowledged is stored");
          const took = await stopWithin(() => app.stop(), gracefulWithinMs, app.output);
          console.log(
            `  ${seen.length} answers, ${acknowledged.length} loans acknowledged, ${
              seen.filter((a) => a.status === 503).length
            } answered 503, slowest ${
              Math.round(Math.max(...seen.map((a) => a.ms)))
            } ms, readiness red ${red.length} times; SIGTERM ended it in ${Math.round(took)} ms`,
          );

          // A frozen server: requests end at their deadline, readiness red, SIGTERM within
          // SHUTDOWN_TIMEOUT although the database never answers.
          app = await serve(dir, server);
          stopped = false;
          const during: Seen[] = [];
          const frozenLoad = Promise.all(
            Array.from(
              { length: 4 },
              () => loanLoad(app, token, () => stopped, during, [], performance.now()),
            ),
          ).then(() => undefined, (error: unknown) => error);
          await pause(1_000);
          frozen = await freeze(server);
          const frozenAt = performance.now();
          await pause(answerWithinMs);
          assert.equal(await readiness(app.url), 503, "readiness red while the server is frozen");
          // The issue's freeze: 30 s, every answer at its deadline throughout.
          await pause(Math.max(0, 30_000 - (performance.now() - frozenAt)));
          assert.equal(await readiness(app.url), 503, "readiness still red after 30 s frozen");
          const slowFrozen = during.filter((answer) => answer.ms > answerWithinMs);
          assert.deepEqual(
            slowFrozen,
            [],
            `every answer within ${answerWithinMs} ms of a 30 s freeze`,
          );
          stopped = true;
          const tookFrozen = await stopWithin(() => app.stop(), shutdownWithinMs, app.output);
          // A shutdown the deadline or a failure ended, said in one line: never an uncaught error.
          assert.match(app.output(), /SHUTDOWN_DEADLINE|SHUTDOWN_FAILED/);
          assert.doesNotMatch(app.output(), /Uncaught/);
          console.log(
            `  frozen ${Math.round((performance.now() - frozenAt) / 1000)} s: ${
              during.filter((a) => a.status === 503).length
            } answered 503; SIGTERM ended it in ${Math.round(tookFrozen)} ms: ${
              app.output().match(/SHUTDOWN_\w+[^\n]*/)?.[0].slice(0, 160)
            }`,
          );
          await within(frozenLoad, 5_000);
        } finally {
          stopped = true;
          probing = false;
          thaw(frozen);
          await admin.end({ timeout: 1 });
          await within(app.stop(), 10_000);
        }
      }, { settings: { max_connections: "60" } });
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});
