import assert from "node:assert/strict";
import { uuidv7 } from "../mod.ts";

Deno.test("uuidv7 answers RFC 9562 version 7 ids that sort by time", () => {
  const a = uuidv7(Date.UTC(2026, 0, 1));
  const b = uuidv7(Date.UTC(2026, 0, 2));
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.ok(a < b);
  assert.equal(
    a.slice(0, 13).replace("-", ""),
    Date.UTC(2026, 0, 1).toString(16).padStart(12, "0"),
  );
  const many = new Set(Array.from({ length: 1000 }, () => uuidv7(0)));
  assert.equal(many.size, 1000);
});
