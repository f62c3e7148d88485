import assert from "node:assert/strict";
import { OperationDeadlines } from "./operation_deadlines.ts";
import { RedisUnavailableError } from "./redis_unavailable.ts";

/** An operation that answers when told to. */
function answerLater<T>(): { promise: Promise<T>; answer: (value: T) => void } {
  let answer!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (answer = resolve));
  return { promise, answer };
}

Deno.test("An operation that does not answer within the deadline fails with RedisUnavailableError naming it; the others are theirs", async () => {
  const deadlines = new OperationDeadlines(20);
  const never = deadlines.run("job claim", () => new Promise<number>(() => {}));
  const later = answerLater<string>();
  const answered = deadlines.run("job completeMany", () => later.promise);
  const failed = deadlines.run("job find", () => Promise.reject(new Error("ERR a script refused")));
  await assert.rejects(failed, /ERR a script refused/, "a refusal passes through");
  later.answer("ok");
  assert.equal(await answered, "ok");
  await assert.rejects(never, (error: unknown) => {
    assert.ok(error instanceof RedisUnavailableError);
    assert.match(String((error as Error).message), /job claim within 20 ms/);
    return true;
  });
  assert.equal(deadlines.size, 0);
});

Deno.test("Operations begun one after another each get their whole deadline, on one timer", async () => {
  let now = 0;
  const deadlines = new OperationDeadlines(20, () => now);
  const first = deadlines.run("job claim", () => new Promise<number>(() => {}));
  now = 1_000; // the second begins well after: its deadline is 1,020
  const second = answerLater<number>();
  const running = deadlines.run("job completeMany", () => second.promise);
  await assert.rejects(first, RedisUnavailableError);
  assert.equal(deadlines.size, 1, "the second is within its deadline when the first fails");
  await new Promise((resolve) => setTimeout(resolve, 50)); // the timer armed again, not fired it
  second.answer(2);
  assert.equal(await running, 2);
  assert.equal(deadlines.size, 0);
});

Deno.test("An error saying Redis is unreachable becomes RedisUnavailableError; a synchronous throw is the operation's failure", async () => {
  const deadlines = new OperationDeadlines(1_000);
  await assert.rejects(
    deadlines.run(
      "job insert",
      () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")),
    ),
    (error: unknown) =>
      error instanceof RedisUnavailableError && /unreachable \(job insert\)/.test(error.message),
  );
  await assert.rejects(
    deadlines.run("job insert", () => {
      throw new TypeError("bad argument");
    }),
    TypeError,
  );
  assert.equal(deadlines.size, 0, "no timer left behind (the test's sanitizer checks it too)");
});
