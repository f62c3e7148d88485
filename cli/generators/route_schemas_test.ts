import assert from "node:assert/strict";
import { z } from "zod";
import type { Field } from "./message_shape.ts";
import { type InputPlace, inputSchema } from "./route_schemas.ts";

/** The zod object a route's generated inputs make, evaluated as the route would. */
function schemaOf(fields: readonly Field[], place: InputPlace): z.ZodType {
  return new Function("z", `return z.object({\n${inputSchema(fields, place)}\n});`)(z);
}

const amount: Field = { name: "amount", shape: { kind: "number" }, optional: false };
const lines: Field = {
  name: "lines",
  shape: {
    kind: "array",
    item: {
      kind: "object",
      fields: [
        { name: "sku", shape: { kind: "string" }, optional: false },
        { name: "quantity", shape: { kind: "number" }, optional: false },
      ],
    },
  },
  optional: false,
};

Deno.test("a generated number input is bounded to the safe integers, fractions accepted", () => {
  const body = schemaOf([amount], "body");
  assert.ok(body.safeParse({ amount: 12.5 }).success);
  assert.ok(body.safeParse({ amount: -Number.MAX_SAFE_INTEGER }).success);
  assert.ok(!body.safeParse({ amount: 1e300 }).success, "1e300 refused");
  assert.ok(!body.safeParse({ amount: Number.MAX_SAFE_INTEGER + 2 }).success);
  const query = schemaOf([amount], "query");
  assert.ok(query.safeParse({ amount: "7" }).success);
  assert.ok(!query.safeParse({ amount: "1e300" }).success, "a query's 1e300 refused");
  assert.ok(!query.safeParse({ amount: "Infinity" }).success);
});

Deno.test("a body's arrays and objects are bounded: items, their texts and their numbers", () => {
  const body = schemaOf([lines], "body");
  assert.ok(body.safeParse({ lines: [{ sku: "a", quantity: 2 }] }).success);
  assert.ok(!body.safeParse({ lines: [{ sku: "a".repeat(1001), quantity: 2 }] }).success);
  assert.ok(!body.safeParse({ lines: [{ sku: "a", quantity: 1e300 }] }).success);
  assert.ok(
    !body.safeParse({ lines: Array.from({ length: 1001 }, () => ({ sku: "a", quantity: 1 })) })
      .success,
  );
});
