import assert from "node:assert/strict";
import { systemActor } from "@kit/kernel";
import { claimedJobOf, JobRowReader, queuedJobOf, storedJobOf } from "./job_rows.ts";

const at = new Date("2026-05-01T08:00:00.000Z");
const row = {
  id: "j1",
  name: "ctx.send",
  queue: "ctx",
  payload: { to: "a" },
  actor: systemActor,
  tenant_id: "",
  correlation_id: "corr",
  traceparent: null,
  subject: "s1",
  idempotency_key: null,
  status: "running",
  attempts: 1,
  max_attempts: 3,
  run_at: at,
  lease_token: "token",
  progress_done: 2,
  progress_total: null,
  checkpoint: null,
  last_error_code: null,
  last_error_at: null,
  created_at: at,
  finished_at: null,
  worker_id: null,
};

Deno.test("claimedJobOf() reads a claimed row, its nulls left out", () => {
  assert.deepEqual(claimedJobOf(row, "claimDueJobs"), {
    id: "j1",
    name: "ctx.send",
    queue: "ctx",
    payload: { to: "a" },
    actor: systemActor,
    correlationId: "corr",
    maxAttempts: 3,
    runAt: at,
    createdAt: at,
    status: "running",
    attempts: 1,
    progress: { done: 2 },
    subject: "s1",
    attempt: 1,
    leaseToken: "token",
  });
});

Deno.test("storedJobOf() throws a TypeError naming the statement and the column", () => {
  assert.throws(
    () => storedJobOf({ ...row, attempts: "1" }, "listJobs"),
    {
      name: "TypeError",
      message: `The row of 'listJobs' has a 'attempts' that is not integer: got "1"`,
    },
  );
  assert.throws(() => storedJobOf({ ...row, run_at: "2026-05-01" }, "listJobs"), /'run_at'/);
  assert.throws(() => storedJobOf({ ...row, status: "lost" }, "listJobs"), /'status'.*one of/);
  assert.throws(() => storedJobOf({ ...row, actor: { id: 1 } }, "listJobs"), /'actor'/);
  assert.throws(
    () => claimedJobOf({ ...row, lease_token: null }, "claimDueJobs"),
    /'lease_token' that is not text: got null/,
  );
});

Deno.test("queuedJobOf() needs each column it reads", () => {
  const { payload: _payload, ...rest } = row;
  assert.equal(queuedJobOf(rest, "findJob").id, "j1");
  const { run_at: _runAt, ...noRunAt } = rest;
  assert.throws(
    () => queuedJobOf(noRunAt, "findJob"),
    /'run_at' that is not timestamptz: no such column/,
  );
});

Deno.test("JobRowReader answers undefined for a null optional column", () => {
  const read = new JobRowReader({ a: null, b: 4 }, "test");
  assert.equal(read.optionalText("a"), undefined);
  assert.equal(read.optionalInteger("b"), 4);
  assert.throws(() => read.optionalText("b"), /'b' that is not text: got 4/);
});
