import assert from "node:assert/strict";
import type { LogRecord } from "@kit/kernel/logging";
import { TestClock } from "@kit/kernel/testing";
import { metrics } from "@opentelemetry/api";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import { Pruner } from "../worker/pruner.ts";

Deno.test({
  name:
    "PostgresJobStore: four workers' pruners at once remove each old finished job once, with no error, and leave recent, waiting and running jobs",
  ignore: ignoreWithout("DATABASE_URL"),
  fn: () =>
    withTestDatabase(async ({ sql }) => {
      await migrateJobs(sql);
      const now = Date.parse("2026-11-26T12:00:00.000Z");
      const day = 86_400_000;
      // 2,500 succeeded two days ago, 600 dead eight days ago (of two queues), 300 succeeded an
      // hour ago, 200 waiting and 100 running created ten days ago.
      await sql`
        insert into background_jobs (id, name, queue, payload, actor, correlation_id,
          max_attempts, run_at, created_at, status, finished_at, lease_token, lease_expires_at)
        select 'j' || n, q || '.x', q, '{}', '{}', 'c', 1, c, c, st, f,
          case when st = 'running' then 'l' end,
          case when st = 'running' then ${new Date(now + day)}::timestamptz end
        from (
          select n, case when n % 2 = 0 then 'mail' else 'billing' end as q,
            ${new Date(now - 10 * day)}::timestamptz as c,
            case when n <= 2500 then 'succeeded' when n <= 3100 then 'dead'
              when n <= 3400 then 'succeeded' when n <= 3600 then 'waiting' else 'running' end as st,
            case when n <= 2500 then ${new Date(now - 2 * day)}::timestamptz
              when n <= 3100 then ${new Date(now - 8 * day)}::timestamptz
              when n <= 3400 then ${new Date(now - 3_600_000)}::timestamptz end as f
          from generate_series(1, 3700) n
        ) rows`;
      const clock = new TestClock(now);
      const lines: LogRecord[] = [];
      const pruners = [1, 2, 3, 4].map(() =>
        new Pruner({
          store: new PostgresJobStore(sql),
          clock,
          queues: ["billing", "mail"],
          retention: {},
          logger: { log: (record) => lines.push(record) },
          meter: metrics.getMeter("test"),
        })
      );
      const passes = await Promise.all(pruners.map((p) => p.pass()));
      let succeeded = 0, dead = 0;
      for (const pass of passes) {
        for (const byStatus of Object.values(pass)) {
          succeeded += byStatus.succeeded ?? 0;
          dead += byStatus.dead ?? 0;
        }
      }
      assert.deepEqual(lines.filter((l) => l.code !== "JOBS_PRUNED"), []);
      assert.deepEqual({ succeeded, dead }, { succeeded: 2_500, dead: 600 });
      const left = await sql<{ status: string; n: number }[]>`
        select status, count(*)::int as n from background_jobs group by status order by status`;
      assert.deepEqual(left.map((r) => [r.status, r.n]), [
        ["running", 100],
        ["succeeded", 300],
        ["waiting", 200],
      ]);
    }),
});
