import assert from "node:assert/strict";
import { healthEndpoints } from "./health.ts";

const get = (path: string, method = "GET") => new Request(`http://api.test${path}`, { method });

Deno.test("/health/live and /health answer 200 whatever the dependencies, no-store", async () => {
  const health = healthEndpoints({
    readiness: { database: () => Promise.reject(new Error("down")) },
  });
  for (const path of ["/health/live", "/health"]) {
    const answer = await health(get(path))!;
    assert.equal(answer.status, 200, path);
    assert.deepEqual(await answer.json(), { status: "ok" });
    assert.equal(answer.headers.get("cache-control"), "no-store");
  }
});

Deno.test("/health/ready answers 200 when every dependency answers, 503 with Retry-After when one does not", async () => {
  let databaseUp = true;
  const failures: string[] = [];
  const health = healthEndpoints({
    readiness: {
      database: () => databaseUp ? Promise.resolve() : Promise.reject(new Error("ECONNREFUSED")),
      jobs: () => Promise.resolve("PONG"),
    },
    onFailure: (name) => failures.push(name),
  });
  const ready = await health(get("/health/ready"))!;
  assert.equal(ready.status, 200);
  assert.deepEqual(await ready.json(), {
    status: "ready",
    checks: { database: { status: "up" }, jobs: { status: "up" } },
  });
  databaseUp = false;
  const down = await health(get("/health/ready"))!;
  assert.equal(down.status, 503);
  assert.equal(down.headers.get("retry-after"), "5");
  assert.deepEqual(await down.json(), {
    status: "unavailable",
    checks: { database: { status: "down", reason: "failed" }, jobs: { status: "up" } },
  });
  assert.deepEqual(failures, ["database"]);
});

Deno.test("The health endpoints answer GET and HEAD only, and leave every other path alone", async () => {
  const health = healthEndpoints({ readiness: {} });
  assert.equal((await health(get("/health/ready", "POST"))!).status, 405);
  assert.equal(health(get("/healthz")), undefined);
  assert.equal(health(get("/health/ready/x")), undefined);
  assert.equal((await health(get("/health/ready", "HEAD"))!).status, 200);
});
