import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { tcpScripting } from "../redis.ts";
import { RedisScript } from "./redis_scripting.ts";

Deno.test({
  name: "RedisScript runs by SHA and falls back to its source after SCRIPT FLUSH",
  ignore: ignoreWithout("REDIS_URL"),
  async fn() {
    const redis = new IORedis(requireUrl("REDIS_URL"));
    try {
      const script = new RedisScript(
        `return {ARGV[1], tonumber(ARGV[2]) + 1, redis.call('ECHO', 'x')}`,
      );
      await redis.script("FLUSH");
      assert.deepEqual(await script.run(tcpScripting(redis), [], ["a", 41]), ["a", 42, "x"]);
      assert.deepEqual(await script.run(tcpScripting(redis), [], ["b", 1]), ["b", 2, "x"]);
      const broken = new RedisScript(`return redis.call('NOT_A_COMMAND')`);
      await assert.rejects(
        () => broken.run(tcpScripting(redis), [], []),
        /Unknown Redis command|unknown command/i,
      );
    } finally {
      redis.disconnect();
    }
  },
});
