import assert from "node:assert/strict";
import { processCursorOf, processCursorRead, processReaches } from "./process_reach.ts";

Deno.test("a page's cursor carries any tenant and key, Unicode included, and reads back", () => {
  for (const [tenantId, key] of [["", "a1"], ["t1", "日本-😀"], ["é", 'a,"b]']] as const) {
    const cursor = processCursorOf({ process: "p", tenantId, key });
    assert.match(cursor, /^[A-Za-z0-9_-]+$/, "URL-safe");
    assert.deepEqual(processCursorRead(cursor), [tenantId, key]);
  }
  for (const bogus of ["bogus", "%%%", btoa("[1,2]"), btoa('["only"]'), "日本"]) {
    assert.equal(processCursorRead(bogus), undefined, bogus);
  }
});

Deno.test("a reach includes its tenant and the elevated ones; none given, every tenant", () => {
  assert.equal(processReaches({}, "t9"), true);
  assert.equal(processReaches({ tenantId: "t1" }, "t1"), true);
  assert.equal(processReaches({ tenantId: "t1" }, "t2"), false);
  assert.equal(processReaches({ tenantId: "t1", elevatedTenants: ["t2"] }, "t2"), true);
  assert.equal(processReaches({ tenantId: "t1" }, ""), false, "no tenant is not every tenant");
});
