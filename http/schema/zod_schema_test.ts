import assert from "node:assert/strict";
import { z } from "zod";
import { zodSchema } from "../mod.ts";

Deno.test("zodSchema() names the keys of an object that strips unknown keys, and only then", () => {
  assert.deepEqual(
    zodSchema(z.object({ "x-request-source": z.string().optional(), b: z.number() })).readsOnly,
    ["x-request-source", "b"],
  );
  assert.deepEqual(zodSchema(z.object({ a: z.string() }).refine(() => true)).readsOnly, ["a"]);
  assert.equal(zodSchema(z.strictObject({ a: z.string() })).readsOnly, undefined);
  assert.equal(zodSchema(z.looseObject({ a: z.string() })).readsOnly, undefined);
  assert.equal(zodSchema(z.object({ a: z.string() }).catchall(z.string())).readsOnly, undefined);
  assert.equal(zodSchema(z.preprocess((v) => v, z.object({ a: z.string() }))).readsOnly, undefined);
  assert.equal(zodSchema(z.object({ a: z.string() }).transform((v) => v)).readsOnly, undefined);
  assert.equal(zodSchema(z.record(z.string(), z.string())).readsOnly, undefined);
});

Deno.test("zodSchema() answers the same for an object given only the keys it reads", () => {
  const schema = zodSchema(
    z.object({ a: z.string(), b: z.string().optional() }).refine((v) => !("c" in v), "no c"),
  );
  const full = { a: "1", c: "3", d: "4" };
  const only = Object.fromEntries(
    schema.readsOnly!.filter((k) => k in full).map((k) => [k, full[k as "a"]]),
  );
  assert.deepEqual(schema.validate(full), schema.validate(only));
});
