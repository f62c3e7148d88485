import assert from "node:assert/strict";
import postgres from "postgres";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { batchLabel, kitClaimBatch } from "./kit_batches.ts";
import {
  captureKitStatements,
  kitLimitScript,
  type KitStatements,
  limitSentinel,
  pgbenchKitLimit,
  pgbenchMissing,
} from "./pgbench.ts";

const statements: KitStatements = {
  claim: {
    text: "update t set a = $1 from (select id from t where q = $2 limit $3) p returning t.id",
    parameters: ["2026-01-01T00:00:00.000Z", "bench", String(limitSentinel)],
  },
  complete: {
    text: "update t set done = $1 where id = any(array(select jsonb_object_keys($2::text::jsonb)))",
    parameters: ["2026-01-01T00:00:00.000Z", '{"a":"b"}'],
  },
};

Deno.test("kitLimitScript: kit's statements verbatim, the limit and the batch as variables", () => {
  const { script, variables } = kitLimitScript(statements, { min: 5, max: 6 });
  assert.equal(
    script,
    [
      "\\set limit random(5, 6)",
      "with claimed as (",
      "update t set a = :claim_p1 from (select id from t where q = :claim_p2 limit :limit) p returning t.id",
      ")",
      "select count(*) as claimed,",
      "  coalesce(json_object_agg(id, lease_token), '{}')::text as batch,",
      "  coalesce(json_agg(claimed), '[]')::text as claimed_rows",
      "from claimed \\gset",
      "update t set done = :complete_p1 where id = any(array(select jsonb_object_keys(:batch::text::jsonb)));",
      "",
    ].join("\n"),
  );
  assert.deepEqual(variables, {
    claim_p1: "2026-01-01T00:00:00.000Z",
    claim_p2: "bench",
    complete_p1: "2026-01-01T00:00:00.000Z",
  });
  assert.match(kitLimitScript(statements, { min: 50, max: 50 }).script, /^\\set limit 50\n/);
});

Deno.test("kitLimitScript: refuses statements without the limit or the batch", () => {
  const noLimit = { ...statements, claim: { ...statements.claim, parameters: ["x", "y", "3"] } };
  assert.throws(() => kitLimitScript(noLimit, { min: 1, max: 1 }), /no limit parameter/);
  const noBatch = {
    ...statements,
    complete: { ...statements.complete, parameters: ["x", "[]"] },
  };
  assert.throws(() => kitLimitScript(noBatch, { min: 1, max: 1 }), /no batch parameter/);
});

Deno.test("kitClaimBatch: the worker's claims as traced at 1, 10 and 50", () => {
  assert.deepEqual(kitClaimBatch(1), { min: 5, max: 6 });
  assert.deepEqual(kitClaimBatch(10), { min: 10, max: 10 });
  assert.deepEqual(kitClaimBatch(50), { min: 50, max: 50 });
  assert.equal(batchLabel(kitClaimBatch(1)), "5-6 jobs");
  assert.equal(batchLabel(kitClaimBatch(50)), "50 jobs");
  assert.throws(() => kitClaimBatch(0), RangeError);
});

async function withSchema(fn: (url: string, schema: string) => Promise<void>): Promise<void> {
  const url = requireUrl("DATABASE_URL");
  const schema = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create schema ${schema}`);
    await fn(url, schema);
  } finally {
    await admin.unsafe(`drop schema if exists ${schema} cascade`);
    await admin.end({ timeout: 5 });
  }
}

Deno.test({
  name: "captureKitStatements: the bench runs the store's own short claim and completion",
  ignore: ignoreWithout("DATABASE_URL"),
  fn: () =>
    withSchema(async (url, schema) => {
      const { claim, complete } = await captureKitStatements(url, schema);
      // The claim of a busy queue: due jobs only, the ended-lease sweep left out.
      assert.match(claim.text, /^\s*update background_jobs j\s+set status = 'running'/);
      assert.match(claim.text, /for update skip locked/);
      assert.doesNotMatch(claim.text, /exhausted|expired/);
      assert.match(claim.text, /returning j\.id, j\.name/);
      assert.match(complete.text, /set status = 'succeeded'/);
      assert.match(complete.text, /jsonb_object_keys/);
      const { script } = kitLimitScript({ claim, complete }, kitClaimBatch(10));
      const verbatim = (text: string) => text.trim().replace(/\$\d+\b/g, "");
      const unvaried = script.replace(/:(claim_p\d+|complete_p\d+|limit|batch)\b/g, "");
      assert.ok(unvaried.includes(verbatim(claim.text)));
      assert.ok(unvaried.includes(verbatim(complete.text)));
    }),
});

Deno.test({
  name: "pgbenchKitLimit: pgbench claims and completes every job with kit's statements",
  ignore: ignoreWithout("DATABASE_URL"),
  fn: async () => {
    if (await pgbenchMissing()) return;
    await withSchema(async (url, schema) => {
      const result = await pgbenchKitLimit({ url, seconds: 1 }, 10, 200, schema);
      assert.ok("rate" in result && result.rate > 0);
    });
  },
});
