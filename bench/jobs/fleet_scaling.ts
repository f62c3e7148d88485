/**
 * Throughput scaling of a fleet on one machine (issue #35): jobs/s with 1, 2 and 4 worker
 * processes on PostgreSQL and on Redis, and requests/s with 1, 2 and 4 API processes of the
 * example, each with the CPU its processes used per job or request, so that the curve's shape can
 * be judged on a machine with few cores (on 2 cores it flattens: the database, Redis, the load
 * and the processes share them).
 *
 * - Jobs: each row a fresh database (`fleet_<random>`, dropped after) or a fresh Redis prefix
 *   (deleted after); its workers (`test_support/fleet_worker.ts`, queue `fleet`, no-op
 *   jobs, concurrency 10, prefetch 10) started and idle first; then `BENCH_JOBS` jobs inserted in
 *   one `jobInsertMany` (which wakes them); jobs/s = the jobs over the time from the insert to the
 *   last one succeeded (polled every 20 ms); CPU/job = the workers' CPU time (user + system, from
 *   `/proc`) over the jobs. The store's server CPU is not counted.
 * - APIs: the example (`src/main.ts`, `JOBS=off`) on a fresh database, 1, 2 or 4 processes; the
 *   client sends each request to the next process in turn (`Deno.serve` can share one port with
 *   `reusePort` on Linux, the example does not set it): `BENCH_CLIENTS` loops each booking slot
 *   after slot on a calendar of its own (`POST /appointments/`, an `Idempotency-Key` each), for
 *   `BENCH_SECONDS` after `BENCH_WARMUP_SECONDS` (2) not measured; req/s = the 201s over the time; CPU/request = the APIs' CPU time over them.
 *   The client runs in this process, on the same cores.
 *
 * `deno run -A bench/jobs/fleet_scaling.ts` with `DATABASE_URL` and `REDIS_URL` set. Knobs:
 * `BENCH_JOBS` (5000), `BENCH_WORKERS` (1,2,4), `BENCH_APIS` (1,2,4), `BENCH_CLIENTS` (16),
 * `BENCH_SECONDS` (5), `BENCH_WARMUP_SECONDS` (2), `BENCH_STORES` (postgres,redis), `BENCH_PARTS` (jobs,apis). Prints the
 * date, the load average before and after, and one markdown table per part.
 */
import { fileURLToPath } from "node:url";
import { Redis as IORedis } from "ioredis";
import { systemActor } from "@kit/kernel";
import type { JobStore } from "@kit/jobs";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { RedisJobStore, tcpScripting } from "@kit/jobs/redis";
import {
  type FleetProcess,
  startProcess,
  stopAll,
  withFleetDatabase,
} from "../../test_support/fleet_processes.ts";
import { signToken } from "../../example/src/platform/auth/tokens.ts";

const workerProgram = fileURLToPath(
  new URL("../../test_support/fleet_worker.ts", import.meta.url),
);
const apiProgram = fileURLToPath(new URL("../../example/src/main.ts", import.meta.url));
const secret = "fleet-bench-secret-0123456789-abcdefghij";

const setting = (name: string, fallback: string) => Deno.env.get(name) || fallback;
const list = (name: string, fallback: string) => setting(name, fallback).split(",");
const jobCount = Number(setting("BENCH_JOBS", "5000"));
const workerCounts = list("BENCH_WORKERS", "1,2,4").map(Number);
const apiCounts = list("BENCH_APIS", "1,2,4").map(Number);
const clients = Number(setting("BENCH_CLIENTS", "16"));
const seconds = Number(setting("BENCH_SECONDS", "5"));
const warmupSeconds = Number(setting("BENCH_WARMUP_SECONDS", "2"));
const stores = list("BENCH_STORES", "postgres,redis");
const parts = list("BENCH_PARTS", "jobs,apis");
const databaseUrl = Deno.env.get("DATABASE_URL");
const redisUrl = Deno.env.get("REDIS_URL");
if (!databaseUrl) throw new Error("fleet_scaling needs DATABASE_URL (and REDIS_URL for Redis)");

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () => Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
const cpuOf = (processes: readonly FleetProcess[]) =>
  processes.reduce((sum, process) => sum + process.cpuMs(), 0);

interface Row {
  readonly label: string;
  readonly processes: number;
  readonly rate: number;
  readonly cpuMsPer: number;
}

async function jobsRow(store: "postgres" | "redis", workers: number): Promise<Row> {
  return await withFleetDatabase(databaseUrl!, async (db) => {
    const prefix = `fleet-bench-${crypto.randomUUID()}:`;
    const redis = store === "redis" ? new IORedis(redisUrl!) : undefined;
    let jobs: JobStore;
    if (redis === undefined) {
      await migrateJobs(db.sql);
      jobs = new PostgresJobStore(db.sql);
    } else {
      jobs = new RedisJobStore(tcpScripting(redis), { prefix, requireDurability: "off" });
    }
    const env = {
      FLEET_STORE: store,
      DATABASE_URL: db.url,
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      REDIS_PREFIX: prefix,
      QUEUES: "fleet",
      CONCURRENCY: "10",
      PREFETCH: "10",
    };
    const processes = await Promise.all(
      Array.from(
        { length: workers },
        (_, i) =>
          startProcess(`w${i}`, workerProgram, { ...env, WORKER_ID: `w${i}` }, "worker started"),
      ),
    );
    try {
      const now = new Date();
      const batch = Array.from({ length: jobCount }, (_, n) => ({
        id: crypto.randomUUID(),
        name: "fleet.work",
        queue: "fleet",
        payload: { n },
        actor: systemActor,
        correlationId: "bench",
        maxAttempts: 3,
        runAt: now,
        createdAt: now,
      }));
      const cpuBefore = cpuOf(processes);
      const began = performance.now();
      await jobs.jobInsertMany!({ jobs: batch });
      for (;;) {
        const counts = await jobs.jobCounts({ reach: {} });
        if ((counts.find((c) => c.queue === "fleet")?.succeeded ?? 0) >= jobCount) break;
        if (performance.now() - began > 120_000) throw new Error("not done within 120 s");
        await pause(20);
      }
      const ms = performance.now() - began;
      return {
        label: store === "postgres" ? "workers, PostgreSQL" : "workers, Redis",
        processes: workers,
        rate: jobCount / (ms / 1000),
        cpuMsPer: (cpuOf(processes) - cpuBefore) / jobCount,
      };
    } finally {
      await stopAll(processes);
      if (redis !== undefined) {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== "0");
        redis.disconnect();
      }
    }
  });
}

async function apisRow(apis: number): Promise<Row> {
  return await withFleetDatabase(databaseUrl!, async (db) => {
    const env = { DATABASE_URL: db.url, JWT_SECRET: secret, JOBS: "off", DATABASE_POOL_SIZE: "8" };
    const started: { process: FleetProcess; base: string }[] = [];
    const start = async (i: number) => {
      const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (probe.addr as Deno.NetAddr).port;
      probe.close();
      const process = await startProcess(
        `api-${i}`,
        apiProgram,
        { ...env, PORT: String(port) },
        "scheduling API on",
      );
      started.push({ process, base: `http://127.0.0.1:${port}` });
    };
    try {
      await start(0); // migrates
      await Promise.all(Array.from({ length: apis - 1 }, (_, i) => start(i + 1)));
      const key = new TextEncoder().encode(secret);
      const practitioner = await signToken(key, {
        sub: "dr-bench",
        roles: ["practitioner"],
        tenants: ["practice-1"],
      });
      const desk = await signToken(key, {
        sub: "desk-bench",
        roles: ["receptionist"],
        tenants: ["practice-1"],
      });
      let turn = 0;
      const send = (path: string, method: string, token: string, body?: unknown, idem?: string) =>
        fetch(started[turn++ % started.length]!.base + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            "x-tenant-id": "practice-1",
            "content-type": "application/json",
            ...(idem ? { "idempotency-key": idem } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }).then(async (response) => (await response.body?.cancel(), response.status));
      const calendars = Array.from({ length: clients }, (_, i) => `bench-${i}`);
      for (const id of calendars) {
        await send(`/calendars/${id}`, "PUT", practitioner);
        await send(`/calendars/${id}/appointment-types/quick`, "PUT", practitioner, {
          name: "Quick",
          durationMinutes: 15,
        });
        await send(`/calendars/${id}/opening-hours`, "PUT", practitioner, {
          windows: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
            weekday,
            opens: "00:00",
            closes: "24:00",
          })),
        });
      }
      const first = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
      const processes = started.map((s) => s.process);
      const slots = new Map(calendars.map((id) => [id, 0]));
      let created = 0;
      let other = 0;
      const load = (ms: number) => {
        const until = performance.now() + ms;
        return Promise.all(calendars.map(async (calendarId) => {
          while (performance.now() < until) {
            const slot = slots.get(calendarId)!;
            slots.set(calendarId, slot + 1);
            const status = await send("/appointments/", "POST", desk, {
              calendarId,
              appointmentTypeId: "quick",
              startsAt: new Date(first + slot * 15 * 60_000).toISOString(),
              patientId: `${calendarId}-${slot}`,
            }, crypto.randomUUID());
            if (status === 201) created++;
            else other++;
          }
        }));
      };
      // Warm-up, not measured: each process compiles its hot paths.
      await load(warmupSeconds * 1000);
      created = 0;
      other = 0;
      const cpuBefore = cpuOf(processes);
      const began = performance.now();
      await load(seconds * 1000);
      const ms = performance.now() - began;
      if (other > 0) console.log(`  (${apis} APIs: ${other} answers other than 201)`);
      return {
        label: "APIs, bookings",
        processes: apis,
        rate: created / (ms / 1000),
        cpuMsPer: (cpuOf(processes) - cpuBefore) / Math.max(created, 1),
      };
    } finally {
      await stopAll(started.map((s) => s.process));
    }
  });
}

const rows: Row[] = [];
const loadBefore = loadAverage();
if (parts.includes("jobs")) {
  for (const store of stores) {
    if (store === "redis" && !redisUrl) {
      console.log("skipped: Redis rows (set REDIS_URL)");
      continue;
    }
    for (const workers of workerCounts) {
      rows.push(await jobsRow(store as "postgres" | "redis", workers));
    }
  }
}
if (parts.includes("apis")) {
  for (const apis of apiCounts) rows.push(await apisRow(apis));
}
const sizes = [
  ...(parts.includes("jobs") ? [`${jobCount} jobs a worker row`] : []),
  ...(parts.includes("apis") ? [`${clients} clients for ${seconds} s an API row`] : []),
];
console.log(
  `\n${new Date().toISOString()}, ${navigator.hardwareConcurrency} cores, load average ` +
    `(1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after; ${sizes.join(", ")}\n`,
);
console.log("| fleet | processes | per second | vs 1 process | CPU ms each |");
console.log("| ----- | --------: | ---------: | -----------: | ----------: |");
for (const row of rows) {
  const one = rows.find((r) => r.label === row.label && r.processes === 1);
  console.log(
    `| ${row.label} | ${row.processes} | ${Math.round(row.rate).toLocaleString("en-US")} | ${
      one ? `${(row.rate / one.rate).toFixed(2)}x` : "-"
    } | ${row.cpuMsPer.toFixed(3)} |`,
  );
}
