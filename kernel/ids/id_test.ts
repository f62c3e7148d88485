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

Deno.test("uuidv7 ids made in one millisecond sort in the order they were made", () => {
  const at = Date.UTC(2026, 5, 1, 8);
  const ids = Array.from({ length: 5000 }, () => uuidv7(at));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  // The first ones carry the millisecond asked for; past the counter's room, the next ones.
  assert.equal(ids[0]!.slice(0, 13).replace("-", ""), at.toString(16).padStart(12, "0"));
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
  // A later millisecond sorts after all of them; an earlier one starts afresh.
  assert.ok(uuidv7(at + 10) > ids.at(-1)!);
  assert.ok(uuidv7(at - 1000) < ids[0]!);
});
