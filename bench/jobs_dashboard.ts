/**
 * The jobs dashboard's list endpoint over 10,000 jobs on PostgreSQL, through kit's whole HTTP
 * pipeline (authenticator, access policy, tenancy, response validation): the first page of all
 * jobs, one queue and status, a search by name, by subject and by error code, and page 20 reached
 * by its cursor. Each kind of request is sent 300 times, one at a time (an operator's page, not a
 * load test), after 50 unmeasured; p50 and p99 are printed beside the target (p99 under 50 ms).
 * In process (`http.fetch`, no socket or server) with a stand-in authenticator that checks a fixed
 * bearer string (no token verified): the store's reads and kit's pipeline are what it measures.
 *
 * Run with `deno task bench`, or alone: `deno run -A bench/jobs_dashboard.ts` (needs
 * DATABASE_URL; prints one line and exits when it is not set). It works in a schema of its own and
 * drops it. `BENCH_JOBS` changes the number of jobs.
 */
import postgres from "postgres";
import { accessPolicy, composeApplication, UnauthorizedError, userActor } from "@kit/kernel";
import { type Authenticator, httpPlugin } from "@kit/http";
import { jobsPlugin } from "@kit/jobs";
import { jobsDashboard } from "@kit/jobs/dashboard";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.log("skipped: the jobs dashboard benchmark needs DATABASE_URL");
  Deno.exit(0);
}

const total = Number(Deno.env.get("BENCH_JOBS") ?? 10_000);
const samples = 300;
const targetP99Ms = 50;
const schema = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe(`create schema ${schema}`);
const sql = postgres(url, { max: 4, onnotice: () => {}, connection: { search_path: schema } });

/** An operator of tenant t1 (a stand-in for a verified token: the pipeline's cost is measured). */
const operator: Authenticator = {
  scheme: "bearer",
  authenticate(request) {
    if (request.headers.get("authorization") !== "Bearer operator") {
      throw new UnauthorizedError("Unknown credential");
    }
    return { actor: userActor("ops-1", { roles: ["operator"], tenants: ["t1"] }) };
  },
};

try {
  await migrateJobs(sql);
  // 10,000 jobs of one tenant over four queues, each status, a few error codes, as a worker
  // leaves them (inserted in bulk: the list is measured, not the enqueue).
  const statuses = ["waiting", "running", "succeeded", "succeeded", "dead", "cancelled"];
  const queues = ["scheduling", "notifications", "analytics", "identity"];
  const base = Date.parse("2026-11-01T00:00:00Z");
  await sql.unsafe(
    `insert into background_jobs (id, name, queue, payload, actor, tenant_id, correlation_id,
       subject, status, attempts, max_attempts, run_at, created_at, last_error_code,
       progress_done, progress_total)
     select
       lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000000',
       'bench.job-' || (n % 7),
       (array[${queues.map((q) => `'${q}'`).join(",")}])[1 + n % 4],
       '{}'::jsonb,
       '{"kind":"user","id":"ops-1","roles":[],"tenants":["t1"],"attributes":{}}'::jsonb,
       't1',
       'corr-' || n,
       'calendar-' || (n % 50),
       (array[${statuses.map((s) => `'${s}'`).join(",")}])[1 + n % 6],
       1, 3,
       to_timestamp(${base / 1000} + n),
       to_timestamp(${base / 1000} + n),
       case when n % 6 = 4 then 'CODE_' || (n % 5) end,
       n % 10, 10
     from generate_series(1, ${total}) as n`,
  );
  await sql`analyze background_jobs`;

  const store = new PostgresJobStore(sql, { listen: false });
  const dashboard = jobsDashboard({ prefix: "/ops/jobs", store });
  const application = composeApplication({
    modules: [dashboard.module],
    accessPolicy: accessPolicy({
      grants: { operator: Object.values(dashboard.permissions) },
    }),
    plugins: {
      backgroundJobs: jobsPlugin({ store }),
      http: httpPlugin({
        authenticators: [operator],
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
        routes: dashboard.routes,
      }),
    },
  });
  const http = application.http!;
  const get = async (path: string): Promise<Record<string, unknown>> => {
    const response = await http.fetch(
      new Request(`http://ops.test${path}`, { headers: { authorization: "Bearer operator" } }),
    );
    if (response.status !== 200) {
      throw new Error(`${path}: ${response.status} ${await response.text()}`);
    }
    return await response.json();
  };

  // The cursor of page 20 (50 jobs a page) of all jobs.
  let after: string | undefined;
  for (let page = 1; page < 20; page++) {
    after = (await get(`/ops/jobs/jobs${after ? `?after=${after}` : ""}`)).next as string;
  }
  const requests: [string, string][] = [
    ["first page, all queues", "/ops/jobs/jobs"],
    ["one queue and status", "/ops/jobs/jobs?queue=scheduling&status=dead"],
    ["search by name", "/ops/jobs/jobs?name=bench.job-3"],
    ["search by subject", "/ops/jobs/jobs?subject=calendar-7"],
    ["search by error code", "/ops/jobs/jobs?errorCode=CODE_4"],
    ["page 20 by its cursor", `/ops/jobs/jobs?after=${after}`],
    ["queue counts", "/ops/jobs/queues"],
  ];
  const rows: string[] = [];
  let worst = 0;
  for (const [title, path] of requests) {
    const answer = await get(path);
    const found = (answer.jobs ?? answer.queues) as unknown[];
    if (found.length === 0) throw new Error(`${title} (${path}) found nothing: nothing measured`);
    for (let i = 0; i < 50; i++) await get(path);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      await get(path);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(samples * 0.5)]!;
    const p99 = times[Math.floor(samples * 0.99)]!;
    worst = Math.max(worst, p99);
    rows.push(
      `| ${title} (${found.length} answered) | ${p50.toFixed(2)} ms | ${p99.toFixed(2)} ms |`,
    );
  }
  console.log(
    [
      `\nJobs dashboard on PostgreSQL, ${
        total.toLocaleString("en-US")
      } jobs, ${samples} requests each, one at a time, in process (\`http.fetch\`: no socket, no ` +
      `server) with a stand-in authenticator (a fixed bearer string, no token verified)`,
      "| request | p50 | p99 |",
      "| --- | --- | --- |",
      ...rows,
      `target: p99 under ${targetP99Ms} ms: ${worst < targetP99Ms ? "met" : "NOT MET"} (worst p99 ${
        worst.toFixed(2)
      } ms)`,
    ].join("\n"),
  );
  await application.stop?.();
} finally {
  await sql.end();
  await admin.unsafe(`drop schema ${schema} cascade`);
  await admin.end();
}
