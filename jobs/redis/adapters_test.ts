import assert from "node:assert/strict";
import { consoleLogger } from "@kit/kernel";
import type { LogRecord } from "@kit/kernel/logging";
import { Redis } from "ioredis";
import { failFastRedisOptions, tcpScripting } from "./adapters.ts";

Deno.test("tcpScripting() turns the client's error events into warn lines REDIS_UNAVAILABLE: no unhandled error event", async () => {
  // A port nothing listens on: every (re)connection fails and ioredis emits "error".
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const records: LogRecord[] = [];
  const written: string[] = [];
  const inner = consoleLogger({ format: "json", write: (line) => written.push(line) });
  const redis = new Redis({
    host: "127.0.0.1",
    port,
    ...failFastRedisOptions({ connectTimeoutMs: 200 }),
    retryStrategy: () => 20,
  });
  try {
    tcpScripting(redis, { logger: { log: (record) => (records.push(record), inner.log(record)) } });
    assert.ok(redis.listenerCount("error") > 0);
    const deadline = Date.now() + 10_000;
    while (records.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(records.length >= 3, `error events logged: ${records.length}`);
    for (const line of written.map((text) => JSON.parse(text))) {
      assert.deepEqual([line.level, line.component, line.code], [
        "warn",
        "redis",
        "REDIS_UNAVAILABLE",
      ]);
      assert.match(line.error, /ECONNREFUSED/);
      assert.doesNotMatch(line.error, /\n\s+at /, "no stack");
    }
  } finally {
    redis.disconnect();
  }
});
