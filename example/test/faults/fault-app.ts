/**
 * What the fault specs share: the application run as `deno task dev` runs it (`src/main.ts`, a
 * process of its own, on a private PostgreSQL that the spec stops, restarts and whose backends
 * it terminates), and a booking load over HTTP that keeps every answer.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  type PrivatePostgres,
  privatePostgresAvailable,
} from "../../../test_support/private_postgres.ts";
import { signToken, type TokenClaims } from "../../src/platform/auth/tokens.ts";

const main = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const worker = fileURLToPath(new URL("../../apps/worker/main.ts", import.meta.url));
const secret = "fault-specs-secret-0123456789-abcdefghij";

/** Whether the fault specs are ignored: no PostgreSQL binaries, and not under CI. */
export const noPrivatePostgres: boolean = !privatePostgresAvailable() &&
  Deno.env.get("CI") !== "true";
if (noPrivatePostgres) {
  console.log("skipped: the fault specs need PostgreSQL's initdb and pg_ctl (KIT_PG_BIN)");
}

/** A line the application printed, and when it came. */
export interface OutputLine {
  readonly at: number;
  readonly stream: "stdout" | "stderr";
  readonly text: string;
}

/** The application in its own process. */
export interface AppProcess {
  /** Its address. */
  readonly base: string;
  /** Whether the process still runs. */
  alive(): boolean;
  /** Its exit status, once it exited. */
  exitStatus(): Deno.CommandStatus | undefined;
  /** What it printed on stderr so far. */
  errors(): string;
  /** Every line it printed so far (stdout and stderr), with when it came (`performance.now()`). */
  lines(): readonly OutputLine[];
  /** A token for the claims, signed with the application's secret. */
  token(claims: TokenClaims): Promise<string>;
  /** Sends SIGTERM and waits for the process to end. */
  stop(): Promise<void>;
  /** Kills the process (SIGKILL to its PID: nothing of it runs after) and waits for its end. */
  kill(): Promise<void>;
}

/**
 * Starts `src/main.ts` on the server's database with the environment given over the spec's
 * (a free port, the secret), and waits until it serves.
 */
export function startApp(
  server: PrivatePostgres,
  env: Readonly<Record<string, string>> = {},
): Promise<AppProcess> {
  return start(main, "scheduling API on", server, env);
}

/**
 * Starts the worker alone (`apps/worker/main.ts`) on the server's database, its health endpoints
 * on a free port (`base`), and waits until it claims.
 */
export function startWorker(
  server: PrivatePostgres,
  env: Readonly<Record<string, string>> = {},
): Promise<AppProcess> {
  return start(worker, "worker started", server, env);
}

/**
 * Starts the program on a free port. The port is found by binding port 0 and closing it, so
 * another process of a parallel run can take it first: a start that failed on an address in use
 * is tried again on another port (at most three times).
 */
async function start(
  program: string,
  started: string,
  server: PrivatePostgres,
  env: Readonly<Record<string, string>>,
): Promise<AppProcess> {
  for (let attempt = 1;; attempt++) {
    try {
      return await startOnce(program, started, server, env);
    } catch (error) {
      const inUse = /AddrInUse|address already in use/i.test(String(error));
      if (!inUse || attempt === 3) throw error;
    }
  }
}

async function startOnce(
  program: string,
  started: string,
  server: PrivatePostgres,
  env: Readonly<Record<string, string>>,
): Promise<AppProcess> {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", program],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      NO_COLOR: "1",
      DATABASE_URL: server.url,
      PORT: String(port),
      HEALTH_PORT: String(port),
      JWT_SECRET: secret,
      ...env,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let status: Deno.CommandStatus | undefined;
  const ended = child.status.then((s) => status = s);
  let stdout = "";
  let stderr = "";
  const lines: OutputLine[] = [];
  const splitter = (stream: OutputLine["stream"]) => {
    let partial = "";
    return (text: string) => {
      const parts = (partial + text).split("\n");
      partial = parts.pop()!;
      for (const part of parts) lines.push({ at: performance.now(), stream, text: part });
    };
  };
  const outLines = splitter("stdout");
  const errLines = splitter("stderr");
  const drained = Promise.all([
    drain(child.stdout, (text) => (stdout += text, outLines(text))),
    drain(child.stderr, (text) => (stderr += text, errLines(text))),
  ]);
  const deadline = Date.now() + 60_000;
  while (!stdout.includes(started)) {
    if (status !== undefined || Date.now() > deadline) {
      // A child that ended already cannot be killed (Deno throws): its output is the error.
      if (status === undefined) child.kill("SIGKILL");
      await ended;
      await drained;
      throw new Error(`${program} did not start: ${stdout}\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const key = new TextEncoder().encode(secret);
  return {
    base: `http://127.0.0.1:${port}`,
    alive: () => status === undefined,
    exitStatus: () => status,
    errors: () => stderr,
    lines: () => lines,
    token: (claims) => signToken(key, claims),
    async stop() {
      if (status === undefined) child.kill("SIGTERM");
      await ended;
      await drained;
    },
    async kill() {
      if (status === undefined) child.kill("SIGKILL");
      await ended;
      await drained;
    },
  };
}

async function drain(stream: ReadableStream<Uint8Array>, add: (text: string) => void) {
  for await (const text of stream.pipeThrough(new TextDecoderStream())) add(text);
}

/** One answer of the application, as the load saw it. */
export interface Seen {
  readonly status: number;
  readonly code: string | undefined;
  readonly retryAfter: string | null;
  readonly ms: number;
  /** When it was sent (ms since the load began). */
  readonly at: number;
}

/** A booking the load made: its slot, its patient, its key, and how it ended. */
export interface Booking {
  readonly calendarId: string;
  readonly patientId: string;
  readonly key: string;
  /** The appointment's id, once a 201 was received. */
  id?: string;
  /** How many requests it took. */
  attempts: number;
}

/** The caller who opens the calendars, and the one who books. */
export const practitioner: TokenClaims = {
  sub: "dr-fault",
  roles: ["practitioner"],
  tenants: ["practice-1"],
};
export const receptionist: TokenClaims = {
  sub: "desk-fault",
  roles: ["receptionist"],
  tenants: ["practice-1"],
};

/** Sends one request; a network error (the application gone) fails the spec. */
export async function send(
  app: AppProcess,
  method: string,
  path: string,
  options: { as: TokenClaims; body?: unknown; key?: string },
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const headers = new Headers({
    authorization: `Bearer ${await app.token(options.as)}`,
    "x-tenant-id": "practice-1",
  });
  if (options.key !== undefined) headers.set("idempotency-key", options.key);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  let response: Response;
  try {
    response = await fetch(app.base + path, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    throw new Error(
      `${method} ${path} got no answer: the application ${
        app.alive() ? "does not answer" : `exited (${JSON.stringify(app.exitStatus())})`
      }; its stderr ends with:\n${app.errors().slice(-3000)}`,
      { cause: error },
    );
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text.length > 0 ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, body, headers: response.headers };
}

/** Opens a calendar with a 15-minute type, open every day all day. */
export async function openCalendar(app: AppProcess, calendarId: string): Promise<void> {
  const as = practitioner;
  assert.equal((await send(app, "PUT", `/calendars/${calendarId}`, { as })).status, 201);
  const type = await send(app, "PUT", `/calendars/${calendarId}/appointment-types/quick`, {
    as,
    body: { name: "Quick", durationMinutes: 15 },
  });
  assert.equal(type.status, 200);
  const windows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    weekday,
    opens: "00:00",
    closes: "24:00",
  }));
  const hours = await send(app, "PUT", `/calendars/${calendarId}/opening-hours`, {
    as,
    body: { windows },
  });
  assert.equal(hours.status, 204);
}

/**
 * Books slot after slot on one calendar (one patient each, from tomorrow on), each with its own
 * `Idempotency-Key`: an answer other than 201 is retried with the same key, as a client whose
 * request failed does, until `until()` says stop; `paceMs` after each booking. Records every
 * answer.
 */
export async function bookingLoad(
  app: AppProcess,
  calendarId: string,
  until: () => boolean,
  seen: Seen[],
  bookings: Booking[],
  startedAt: number,
  paceMs = 0,
): Promise<void> {
  const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
  for (let slot = 0; !until(); slot++) {
    const booking: Booking = {
      calendarId,
      patientId: `${calendarId}-patient-${slot}`,
      key: crypto.randomUUID(),
      attempts: 0,
    };
    bookings.push(booking);
    const body = {
      calendarId,
      appointmentTypeId: "quick",
      startsAt: new Date(tomorrow + slot * 15 * 60_000).toISOString(),
      patientId: booking.patientId,
    };
    while (booking.id === undefined && !until()) {
      const sent = performance.now();
      booking.attempts++;
      const answer = await send(app, "POST", "/appointments/", {
        as: receptionist,
        body,
        key: booking.key,
      });
      seen.push({
        status: answer.status,
        code: answer.body.code as string | undefined,
        retryAfter: answer.headers.get("retry-after"),
        ms: performance.now() - sent,
        at: sent - startedAt,
      });
      if (answer.status === 201) {
        booking.id = answer.body.id as string;
        if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
      } else {
        // A client honours Retry-After only loosely here, to keep the load on during the outage.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}
