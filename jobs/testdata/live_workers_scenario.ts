/**
 * The scenario of the live-workers process tests, on any store the worker process can open: two
 * worker processes (`live_worker_process.ts`) each hold one job; one is killed with SIGKILL; the
 * dashboard stops listing it once its heartbeat expired, shows its job as the job of a worker
 * gone, and the job goes back to waiting when its lease ends (the survivor's rescuer: its only slot
 * is busy, so its claims take nothing). Real time, with deadlines.
 */
import assert from "node:assert/strict";
import { systemActor, type TransactionManager } from "@kit/kernel";
import type { JobStore } from "../mod.ts";
import { dashboardApp } from "./dashboard_app.ts";

const operator = "olga;operator;t1";

interface WorkerChild {
  readonly process: Deno.ChildProcess;
  /** Waits, up to `ms`, for output containing `text`. */
  until(text: string, ms: number): Promise<void>;
}

function spawnWorker(env: Record<string, string>): WorkerChild {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./live_worker_process.ts", import.meta.url).pathname],
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

/**
 * Runs the scenario on `store`, the worker processes opening the same store from `env`.
 *
 * @param store The store, as the test process opens it.
 * @param env The environment that makes a worker process open the same store.
 * @param transactions The units of work of a store that shares the transaction.
 * @returns How long after SIGKILL the dashboard stopped listing the killed worker, in ms.
 */
export async function liveWorkersScenario(
  store: JobStore,
  env: Record<string, string>,
  transactions?: TransactionManager,
): Promise<number> {
  for (let i = 0; i < 2; i++) {
    const now = new Date();
    await store.jobInsert({
      job: {
        id: crypto.randomUUID(),
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
  const a = spawnWorker({ ...env, WORKER_ID: "w-a" });
  const b = spawnWorker({ ...env, WORKER_ID: "w-b" });
  try {
    await Promise.all([a.until("running", 20_000), b.until("running", 20_000)]);
    const { call } = dashboardApp({
      store,
      ...(transactions === undefined ? {} : { transactions }),
    });
    const workersNow = async () =>
      (await call("GET", "/ops/jobs/workers", operator)).body as {
        workers: { id: string; pid?: number; runningJobs: { id: string }[] }[];
        orphanedJobs: { id: string; workerId: string }[];
      };
    // Each is listed from its first heartbeat, which may come after it says it runs.
    await eventually(
      "both workers listed",
      10_000,
      async () => (await workersNow()).workers.length === 2,
    );
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
    await eventually("w-a no longer listed, its job orphaned", 10_000, async () => {
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

    await eventually("the killed worker's job back to waiting", 20_000, async () => {
      const view = await call("GET", `/ops/jobs/jobs/${killedJob}`, operator);
      return view.body.status === "waiting";
    });
    const back = await call("GET", `/ops/jobs/jobs/${killedJob}`, operator);
    assert.equal(back.body.attempts, 1);
    assert.equal(back.body.workerGone, undefined);
    assert.deepEqual((await workersNow()).orphanedJobs, []);
    return goneAfterMs;
  } finally {
    for (const child of [a, b]) {
      try {
        child.process.kill("SIGKILL");
      } catch {
        // ended already
      }
      await child.process.status;
    }
  }
}
