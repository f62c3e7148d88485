import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import type { JobStore, NewJob } from "../store/job_store.ts";
import {
  type JobAttempt,
  jobAttemptHistoryLimit,
  jobAttemptMessageMaxLength,
} from "../store/job_attempts.ts";
import type { JobStoreCase } from "./job_store_case_helpers.ts";

const t0 = new Date("2026-05-01T09:00:00.000Z");
const at = (ms: number): Date => new Date(t0.getTime() + ms);
const leases = { leases: {}, defaultLeaseMs: 1_000 } as const;

function job(overrides: Partial<NewJob> = {}): NewJob {
  return {
    id: crypto.randomUUID(),
    name: "scheduling.send-reminder",
    queue: "scheduling",
    payload: {},
    actor: userActor("u1"),
    correlationId: "corr-1",
    maxAttempts: 3,
    runAt: t0,
    createdAt: t0,
    ...overrides,
  };
}

async function claim(store: JobStore, j: NewJob, now: number): Promise<string> {
  const [claimed] = await store.jobClaim({ queue: j.queue, limit: 1, now: at(now), ...leases });
  assert.equal(claimed?.id, j.id);
  return claimed!.leaseToken;
}

/** The history as plain data: times in ms from t0. */
async function historyOf(store: JobStore, id: string): Promise<unknown[] | undefined> {
  const view = await store.jobView({ id, reach: {} });
  return view?.attemptHistory?.map((a: JobAttempt) => ({
    ...a,
    ...(a.startedAt === undefined ? {} : { startedAt: a.startedAt.getTime() - t0.getTime() }),
    endedAt: a.endedAt.getTime() - t0.getTime(),
  }));
}

/**
 * The cases of the attempt history (`jobView`'s `attemptHistory`), run by `jobStoreContract`.
 *
 * @param test Declares a case on a fresh store.
 */
export function jobStoreAttemptsContract(test: JobStoreCase): void {
  test("a job's view lists its ended attempts: retried, expired, dead, then succeeded", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    assert.deepEqual(await historyOf(store, j.id), []);
    const first = await claim(store, j, 10);
    const long = "é".repeat(jobAttemptMessageMaxLength + 100);
    await store.jobFail({
      id: j.id,
      leaseToken: first,
      now: at(15),
      errorCode: "CALENDAR_LOCKED",
      errorMessage: long,
      retryAt: at(20),
    });
    await claim(store, j, 20); // attempt 2: its lease ends at 1_020
    await claim(store, j, 1_100); // attempt 3 takes over; its lease ends at 2_100
    assert.deepEqual(
      await store.jobClaim({ queue: j.queue, limit: 1, now: at(2_200), ...leases }),
      [],
    );
    const [one, two, three] = (await historyOf(store, j.id)) as JobAttempt[];
    assert.equal(one?.errorMessage?.length, jobAttemptMessageMaxLength);
    assert.ok(long.startsWith(one!.errorMessage!.slice(0, -1)));
    assert.deepEqual(await historyOf(store, j.id), [
      {
        attempt: 1,
        outcome: "retried",
        errorCode: "CALENDAR_LOCKED",
        errorMessage: one!.errorMessage,
        startedAt: 10,
        endedAt: 15,
      },
      { attempt: 2, outcome: "expired", startedAt: 20, endedAt: 1_100 },
      {
        attempt: 3,
        outcome: "dead",
        errorCode: "ATTEMPTS_EXHAUSTED",
        errorMessage: "The lease of the last attempt ended",
        startedAt: 1_100,
        endedAt: 2_200,
      },
    ]);
    assert.deepEqual([two?.attempt, three?.attempt], [2, 3]);

    assert.equal(await store.jobRetryDead({ id: j.id, reach: {}, now: at(3_000) }), true);
    const revived = await claim(store, j, 3_000);
    assert.equal(await store.jobComplete({ id: j.id, leaseToken: revived, now: at(3_050) }), true);
    const history = (await historyOf(store, j.id))!;
    assert.equal(history.length, 4);
    assert.deepEqual(history[3], {
      attempt: 1,
      outcome: "succeeded",
      startedAt: 3_000,
      endedAt: 3_050,
    });
  });

  test("a failure without a retry ends the history dead; a batch completion records success", async (store) => {
    const failing = job();
    const passing = job();
    for (const j of [failing, passing]) await store.jobInsert({ job: j });
    const [a, b] = await store.jobClaim({ queue: "scheduling", limit: 2, now: at(10), ...leases });
    const token = (id: string) => [a, b].find((c) => c?.id === id)!.leaseToken;
    await store.jobFail({
      id: failing.id,
      leaseToken: token(failing.id),
      now: at(30),
      errorCode: "INVALID_CALENDAR",
      errorMessage: "No such calendar",
    });
    const jobs = [{ id: passing.id, leaseToken: token(passing.id) }];
    if (store.jobCompleteMany) await store.jobCompleteMany({ jobs, now: at(40) });
    else await store.jobComplete({ ...jobs[0]!, now: at(40) });
    assert.deepEqual(await historyOf(store, failing.id), [{
      attempt: 1,
      outcome: "dead",
      errorCode: "INVALID_CALENDAR",
      errorMessage: "No such calendar",
      startedAt: 10,
      endedAt: 30,
    }]);
    assert.deepEqual(await historyOf(store, passing.id), [
      { attempt: 1, outcome: "succeeded", startedAt: 10, endedAt: 40 },
    ]);
  });

  test(`a job retried forever keeps its last ${jobAttemptHistoryLimit} attempts`, async (store) => {
    const j = job({ maxAttempts: 100 });
    await store.jobInsert({ job: j });
    const failures = jobAttemptHistoryLimit + 5;
    for (let n = 1; n <= failures; n++) {
      const token = await claim(store, j, n * 10);
      await store.jobFail({
        id: j.id,
        leaseToken: token,
        now: at(n * 10 + 1),
        errorCode: `E${n}`,
        errorMessage: "again",
        retryAt: at(n * 10 + 5),
      });
    }
    let history = (await historyOf(store, j.id)) as JobAttempt[];
    assert.equal(history.length, jobAttemptHistoryLimit);
    assert.deepEqual(
      [history[0]?.attempt, history[0]?.errorCode, history.at(-1)?.attempt],
      [6, "E6", failures],
    );
    const token = await claim(store, j, 1_000);
    await store.jobComplete({ id: j.id, leaseToken: token, now: at(1_001) });
    history = (await historyOf(store, j.id)) as JobAttempt[];
    assert.equal(history.length, jobAttemptHistoryLimit);
    assert.deepEqual(
      [history[0]?.attempt, history.at(-1)?.attempt, history.at(-1)?.outcome],
      [7, failures + 1, "succeeded"],
    );
  });

  test("a purged job's attempt history goes with it", async (store) => {
    const j = job({ maxAttempts: 1 });
    await store.jobInsert({ job: j });
    const token = await claim(store, j, 10);
    await store.jobFail({
      id: j.id,
      leaseToken: token,
      now: at(20),
      errorCode: "BROKEN",
      errorMessage: "Broken",
    });
    assert.equal((await historyOf(store, j.id))?.length, 1);
    assert.equal(await store.jobPurgeFinished({ before: at(21) }), 1);
    assert.equal(await historyOf(store, j.id), undefined);
    // The same id enqueued again (an outbox relay may) starts with no history.
    await store.jobInsert({ job: j });
    assert.deepEqual(await historyOf(store, j.id), []);
  });
}
