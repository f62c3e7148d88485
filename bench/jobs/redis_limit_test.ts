import assert from "node:assert/strict";
import { Redis } from "ioredis";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { kitClaimBatch } from "./kit_batches.ts";
import { claimSize, limitKeys, redisLimit } from "./redis_limit.ts";

Deno.test("claimSize: kit's claim sizes in turn", () => {
  const batch = kitClaimBatch(1);
  assert.deepEqual([0, 1, 2, 3].map((k) => claimSize(batch, k)), [5, 6, 5, 6]);
  assert.deepEqual([0, 1].map((k) => claimSize(kitClaimBatch(50), k)), [50, 50]);
});

Deno.test({
  name: "redisLimit: every job pushed is moved to done; the keys are gone afterwards",
  ignore: ignoreWithout("REDIS_URL"),
  fn: async () => {
    const url = requireUrl("REDIS_URL");
    const result = await redisLimit(url, 5, 1_003, kitClaimBatch(10));
    assert.equal(result.jobs, 1_003);
    assert.ok(result.rate > 0);
    const redis = new Redis(url, { db: 5 });
    try {
      assert.equal(await redis.exists(limitKeys.wait, limitKeys.done, limitKeys.active(0)), 0);
    } finally {
      redis.disconnect();
    }
  },
});
