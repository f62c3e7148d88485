import assert from "node:assert/strict";
import {
  type BackgroundJobExecution,
  composeApplication,
  defineModule,
  systemActor,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import postgres from "postgres";
import { pgTest } from "../../test_support/services.ts";
import { Background, type BackgroundJobsApi, jobsPlugin } from "../mod.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";

pgTest(
  "A worker killed with SIGKILL mid-run loses no job: another takes it after the lease, one attempt more",
  async ({ sql, url, schema }) => {
    await migrateJobs(sql);
    const store = new PostgresJobStore(sql);
    const id = crypto.randomUUID();
    await store.jobInsert({
      job: {
        id,
        name: "faults.hang",
        queue: "faults",
        payload: {},
        actor: systemActor,
        correlationId: "fault",
        maxAttempts: 5,
        runAt: new Date(),
        createdAt: new Date(),
      },
    });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../testdata/worker_process.ts", import.meta.url).pathname],
      env: { DATABASE_URL: url, TEST_SCHEMA: schema },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes(`running ${id} 1`)) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    assert.ok(seen.includes(`running ${id} 1`), `the child never ran the job: ${seen}`);
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel().catch(() => {});
    assert.equal((await store.jobFind({ id, reach: {} }))?.status, "running");

    const ran: number[] = [];
    @Background({ lease: "2s" })
    class Hang {
      static readonly jobName = "faults.hang";
      run(_payload: unknown, execution: BackgroundJobExecution): Promise<void> {
        ran.push(execution.attempt);
        return Promise.resolve();
      }
    }
    const clock = new TestClock(Date.now());
    const app = composeApplication({
      modules: [defineModule("faults", { declarations: [Hang] })],
      clock,
      plugins: { backgroundJobs: jobsPlugin({ store }) },
    });
    const jobs = app.backgroundJobs as BackgroundJobsApi;
    assert.equal(await jobs.runDue(), 0, "the dead worker's lease still holds the job");
    clock.advance(2_001);
    assert.equal(await jobs.runDue(), 1);
    assert.deepEqual(ran, [2]);
    const job = await store.jobFind({ id, reach: {} });
    assert.equal(job?.status, "succeeded");
    assert.equal(job?.attempts, 2);
  },
);

pgTest(
  "10,000 jobs through 4 workers: each succeeds exactly once, none lost, no attempt run twice",
  async ({ sql, url, schema }) => {
    await migrateJobs(sql);
    const total = 10_000;
    await sql`
    insert into background_jobs (id, name, queue, payload, actor, correlation_id, max_attempts, run_at, created_at)
    select 'job-' || lpad(n::text, 5, '0'), 'load.noop', 'load', jsonb_build_object('n', n),
      ${sql.json(systemActor as unknown as postgres.JSONValue)}, 'load', 5, now(), now()
    from generate_series(1, ${total}) as n`;
    const runs = new Map<string, number>();
    @Background()
    class Noop {
      static readonly jobName = "load.noop";
      run(_payload: unknown, execution: BackgroundJobExecution): Promise<void> {
        const key = `${execution.jobId}#${execution.attempt}`;
        runs.set(key, (runs.get(key) ?? 0) + 1);
        return Promise.resolve();
      }
    }
    const clients = [0, 1, 2, 3].map(() =>
      postgres(url, { max: 3, onnotice: () => {}, connection: { search_path: schema } })
    );
    let succeeded = 0;
    const finished = Promise.withResolvers<void>();
    const apps = clients.map((client) => {
      const app = composeApplication({
        modules: [defineModule("load", { declarations: [Noop] })],
        plugins: {
          backgroundJobs: jobsPlugin({
            store: new PostgresJobStore(client),
            start: true,
            concurrency: 8,
            pollInterval: "20ms",
          }),
        },
      });
      (app.backgroundJobs as BackgroundJobsApi).worker.onAttempt((_job, result) => {
        if (result.outcome === "succeeded" && ++succeeded === total) finished.resolve();
      });
      return app;
    });
    try {
      await Promise.all(apps.map((app) => app.start()));
      await finished.promise;
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
      await Promise.all(clients.map((client) => client.end()));
    }
    const [counts] = await sql`
    select count(*) filter (where status = 'succeeded')::int as succeeded,
      count(*) filter (where attempts = 1)::int as first_attempt, count(*)::int as kept
    from background_jobs`;
    assert.deepEqual(counts, { succeeded: total, first_attempt: total, kept: total });
    assert.equal(runs.size, total);
    assert.ok([...runs.values()].every((n) => n === 1), "an attempt ran twice");
  },
);
