import assert from "node:assert/strict";
import { resumeAt } from "./clear-calendar.job.ts";

Deno.test("a clearance resumes at its checkpoint, read through its schema", () => {
  assert.equal(resumeAt({ next: 2 }, 5), 2);
  assert.equal(resumeAt({ next: 9 }, 5), 5, "never beyond the last appointment");
});

Deno.test("a clearance with no checkpoint, or one of another shape, starts from the first appointment", () => {
  for (const checkpoint of [undefined, null, "2", { next: "2" }, { next: -1 }, { next: 1.5 }, []]) {
    assert.equal(resumeAt(checkpoint, 5), 0, JSON.stringify(checkpoint));
  }
});
