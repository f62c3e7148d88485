import assert from "node:assert/strict";
import { closeRowPairs, medianRound } from "./rounds.ts";

Deno.test("closeRowPairs: pairs closer than 1.2x either way; missing or zero values left out", () => {
  const values: Record<string, number> = { kit: 10_931, hono: 10_318, fastify: 8_000, zero: 0 };
  const value = (name: string) => values[name];
  assert.deepEqual(
    closeRowPairs(value, [["kit", "hono"], ["kit", "fastify"], ["kit", "zero"], ["kit", "nobody"]]),
    [["kit", "hono"]],
  );
  assert.deepEqual(closeRowPairs(value, [["fastify", "kit"]], 1.4), [["fastify", "kit"]]);
});

Deno.test("medianRound: the median round (lower of an even count) and the spread", () => {
  const runs = [{ rps: 3, cpu: 1 }, { rps: 1, cpu: 2 }, { rps: 2, cpu: 3 }, { rps: 9, cpu: 4 }];
  assert.deepEqual(medianRound(runs), { median: { rps: 2, cpu: 3 }, min: 1, max: 9, rounds: 4 });
  assert.throws(() => medianRound([]), RangeError);
});
