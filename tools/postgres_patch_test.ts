import assert from "node:assert/strict";
import { applyHunks, hunkMarks, parsePatch, patchProblems } from "./postgres_patch.ts";

Deno.test("the vendored driver is kit.patch applied to the pristine postgres.js 3.4.9, every hunk numbered, every numbered patch tested", async () => {
  assert.deepEqual(await patchProblems(), []);
});

const patch = `--- a/src/x.js
+++ b/src/x.js
@@ -2,3 +2,4 @@
 two
-three
+three // kit patch 4, 8
+three and a half
 four
@@ -7,2 +8,2 @@
 seven
-eight
+eight // kit patch 2
`;

Deno.test("a patch applies exactly where its hunks say, and each hunk tells the patches it marks", () => {
  const hunks = parsePatch(patch);
  assert.deepEqual(hunks.map((h) => [h.path, h.oldStart, hunkMarks(h)]), [
    ["src/x.js", 2, [4, 8]],
    ["src/x.js", 7, [2]],
  ]);
  const original = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n";
  assert.equal(
    applyHunks(original, hunks),
    "one\ntwo\nthree // kit patch 4, 8\nthree and a half\nfour\nfive\nsix\nseven\n" +
      "eight // kit patch 2\nnine\n",
  );
});

Deno.test("a hunk whose context is not the original's is refused, naming it; an unmarked hunk marks nothing", () => {
  const hunks = parsePatch(patch);
  assert.throws(
    () => applyHunks("one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\n", hunks),
    /src\/x\.js: hunk at line 2 does not apply at line 3/,
  );
  const [unmarked] = parsePatch("+++ b/src/y.js\n@@ -1,1 +1,1 @@\n-a\n+b\n");
  assert.deepEqual(hunkMarks(unmarked!), []);
  assert.throws(() => parsePatch("+++ b/src/y.js\n@@ -1,1 +1,1 @@\n?a\n"), /line 3/);
});
