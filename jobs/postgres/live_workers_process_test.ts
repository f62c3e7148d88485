/**
 * The dashboard lists the live workers of a PostgreSQL store, tested with two worker processes
 * (`testdata/live_worker_process.ts`), one killed with SIGKILL: the dashboard stops listing it
 * once its heartbeat expired, shows its job as the job of a worker gone, and the job is taken back
 * to waiting when its lease ends. Real time, with deadlines.
 */
import assert from "node:assert/strict";
import { systemActor } from "@kit/kernel";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { pgTest } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import { dashboardApp } from "../dashboard/_test_app.ts";

const operator = "olga;operator;t1";

interface WorkerChild {
  readonly process: Deno.ChildProcess;
  /** Waits, up to `ms`, for a line containing `text`. */
  until(text: string, ms: number): Promise<void>;
  seen(): string;
}

function spawnWorker(env: Record<string, string>): WorkerChild {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./testdata/live_worker_process.ts", import.meta.url).pathname],
    env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let seen = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  (async () => {
    for await (const chunk of process.stdout.pipeThrough(new TextDecoderStream())) {
      seen += chunk;
      for (const w of waiters.filter((w) => seen.includes(w.text))) w.resolve();
    }
  })().catch(() => {});
  return {
    process,
    seen: () => seen,
    until: (text, ms) =>
      new Promise<void>((resolve, reject) => {
        if (seen.includes(text)) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`no '${text}' within ${ms} ms; the worker said: ${seen}`)),
          ms,
        );
        waiters.push({ text, resolve: () => (clearTimeout(timer), resolve()) });
      }),
  };
}

/** Polls `check` every 100 ms until it answers true, failing after `ms`. */
async function eventually(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

pgTest(
  "The dashboard lists two worker processes live; once one is killed, only the other, its job shown as the job of a worker gone, then taken back to waiting",
  async ({ sql, url, schema }) => {
    await migrateJobs(sql);
    const store = new PostgresJobStore(sql);
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) {
      const now = new Date();
      await store.jobInsert({
        job: {
          id,
          name: "faults.hang",
          queue: "faults",
          payload: {},
          actor: systemActor,
          tenantId: "t1",
          correlationId: "live-workers",
          maxAttempts: 5,
          runAt: now,
          createdAt: now,
        },
      });
    }
    const env = { DATABASE_URL: url, TEST_SCHEMA: schema };
    const a = spawnWorker({ ...env, WORKER_ID: "w-a" });
    const b = spawnWorker({ ...env, WORKER_ID: "w-b" });
    try {
      await Promise.all([a.until("running", 20_000), b.until("running", 20_000)]);
      const { call } = dashboardApp({ store, transactions: new PostgresTransactions(sql) });
      const workersNow = async () =>
        (await call("GET", "/ops/jobs/workers", operator)).body as {
          workers: { id: string; pid?: number; runningJobs: { id: string }[] }[];
          orphanedJobs: { id: string; workerId: string }[];
        };
      const both = await workersNow();
      assert.deepEqual(both.workers.map((w) => w.id).sort(), ["w-a", "w-b"]);
      assert.deepEqual(
        both.workers.map((w) => w.pid).sort(),
        [a.process.pid, b.process.pid].sort(),
      );
      const heldByA = both.workers.find((w) => w.id === "w-a")!.runningJobs.map((j) => j.id);
      assert.equal(heldByA.length, 1, "each worker holds one job (concurrency 1)");
      const killedJob = heldByA[0]!;

      a.process.kill("SIGKILL");
      await a.process.status;
      const killedAt = Date.now();
      await eventually("w-a no longer listed, its job orphaned", 5_000, async () => {
        const now = await workersNow();
        return now.workers.length === 1 && now.orphanedJobs.length === 1;
      });
      const goneAfterMs = Date.now() - killedAt;
      const after = await workersNow();
      assert.deepEqual(after.workers.map((w) => w.id), ["w-b"]);
      assert.deepEqual(after.orphanedJobs, [
        { id: killedJob, name: "faults.hang", queue: "faults", workerId: "w-a" },
      ]);
      const job = await call("GET", `/ops/jobs/jobs/${killedJob}`, operator);
      assert.equal(job.body.status, "running");
      assert.equal(job.body.workerGone, true);
      console.log(`w-a shown gone ${goneAfterMs} ms after SIGKILL (heartbeat ttl 1 s)`);

      // Its lease (2 s) ends; w-b's claim or rescuer takes the job back; w-b runs it once it has a
      // free slot: w-b's own job hangs forever, so the job waits, shown waiting, not running.
      await eventually("the killed worker's job taken back", 10_000, async () => {
        const view = await call("GET", `/ops/jobs/jobs/${killedJob}`, operator);
        return view.body.status === "waiting";
      });
      const back = await call("GET", `/ops/jobs/jobs/${killedJob}`, operator);
      assert.equal(back.body.attempts, 1);
      assert.equal(back.body.workerGone, undefined);
      assert.deepEqual((await workersNow()).orphanedJobs, []);
    } finally {
      for (const child of [a, b]) {
        try {
          child.process.kill("SIGKILL");
        } catch {
          // already ended
        }
        await child.process.status;
      }
    }
  },
);
