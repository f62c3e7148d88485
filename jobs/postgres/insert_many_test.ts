import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import type { NewJob } from "../store/job_store.ts";

const t0 = new Date("2026-05-01T08:00:00.123Z");

function job(id: string, queue: string, extra: Partial<NewJob> = {}): NewJob {
  return {
    id,
    name: `${queue}.job`,
    queue,
    payload: { id, nested: { list: [1, "two", null], quote: 'it\'s "here"' } },
    actor: userActor("u1", { roles: ["practitioner"], attributes: { site: "north" } }),
    correlationId: `corr-${id}`,
    maxAttempts: 4,
    runAt: new Date(t0.getTime() + 1),
    createdAt: t0,
    ...extra,
  };
}

Deno.test({
  name:
    "PostgresJobStore: jobInsertMany keeps every field of every job and notifies once per queue",
  ignore: ignoreWithout("DATABASE_URL"),
  fn: () =>
    withTestDatabase(async ({ sql }) => {
      await migrateJobs(sql);
      const store = new PostgresJobStore(sql);
      const heard: string[] = [];
      let onHeard = () => {};
      const unlisten = await store.jobListen!((queue) => {
        heard.push(queue);
        onHeard();
      });
      const until = (queue: string) =>
        new Promise<void>((resolve) => {
          onHeard = () => heard.includes(queue) && resolve();
          onHeard();
        });
      try {
        const jobs = [
          job("a", "billing", {
            tenantId: "t1",
            traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            subject: "invoice:1",
            idempotencyKey: "k1",
          }),
          job("b", "billing"),
          job("c", "scheduling", { maxAttempts: 1 }),
        ];
        assert.deepEqual(await store.jobInsertMany({ jobs }), [{ id: "a" }, { id: "b" }, {
          id: "c",
        }]);
        const listed = await store.jobList();
        assert.deepEqual(
          listed.map(({ status, attempts, progress, ...rest }) => ({
            status,
            attempts,
            progress,
            rest,
          })),
          jobs.map((j) => ({
            status: "waiting",
            attempts: 0,
            progress: { done: 0 },
            rest: j,
          })),
        );
        await store.jobInsert({ job: job("d", "reports") }); // notifications arrive in order
        await until("reports");
        assert.deepEqual(heard.sort(), ["billing", "reports", "scheduling"]);
      } finally {
        await unlisten();
      }
    }),
});
