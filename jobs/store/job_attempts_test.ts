import assert from "node:assert/strict";
import {
  appendAttempt,
  attemptHistoryOf,
  jobAttemptHistoryLimit,
  jobAttemptMessageMaxLength,
  truncateAttemptMessage,
} from "./job_attempts.ts";

Deno.test("truncateAttemptMessage() keeps a short message and cuts a long one, never inside a pair", () => {
  assert.equal(truncateAttemptMessage("taken"), "taken");
  const long = "a".repeat(jobAttemptMessageMaxLength - 2) + "😀😀";
  const cut = truncateAttemptMessage(long);
  assert.ok(cut.length <= jobAttemptMessageMaxLength);
  assert.ok(cut.endsWith("a…"), "the emoji's pair is dropped whole");
  assert.equal(truncateAttemptMessage("x".repeat(600)).length, jobAttemptMessageMaxLength);
});

Deno.test("appendAttempt() keeps the last attempts only", () => {
  let history = appendAttempt([], { attempt: 1, outcome: "retried", endedAt: new Date(1) });
  for (let n = 2; n <= jobAttemptHistoryLimit + 3; n++) {
    history = appendAttempt(history, { attempt: n, outcome: "retried", endedAt: new Date(n) });
  }
  assert.equal(history.length, jobAttemptHistoryLimit);
  assert.equal(history[0]?.attempt, 4);
});

Deno.test("attemptHistoryOf() reads kept JSON and skips what is not an attempt", () => {
  assert.deepEqual(
    attemptHistoryOf([
      { attempt: 1, outcome: "dead", errorCode: "E", errorMessage: "m", startedAt: 5, endedAt: 9 },
      { attempt: 2, outcome: "succeeded", startedAt: null, endedAt: "12" },
      { attempt: 3, outcome: "exploded", endedAt: 1 },
      { outcome: "dead", endedAt: 1 },
      null,
      "text",
    ]),
    [
      {
        attempt: 1,
        outcome: "dead",
        errorCode: "E",
        errorMessage: "m",
        startedAt: new Date(5),
        endedAt: new Date(9),
      },
      { attempt: 2, outcome: "succeeded", endedAt: new Date(12) },
    ],
  );
});
