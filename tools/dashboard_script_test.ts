import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { expectedModule, generatedPath, joinModules } from "./dashboard_script.ts";

Deno.test("the committed dashboard script module is what tools/dashboard_script.ts writes from jobs/dashboard/page/script/", () => {
  assert.equal(
    readFileSync(generatedPath, "utf8"),
    expectedModule(),
    "stale: run 'deno run -A tools/dashboard_script.ts'",
  );
});

Deno.test("the page script is its modules in one scope, each after those it imports, imports and exports dropped", () => {
  const modules: Record<string, string> = {
    "main.js": '// @ts-check\nimport { b } from "./b.js";\nimport { a } from "./a.js";\nb(a);\n',
    "a.js": '/// <reference lib="dom" />\nexport const a = 1;\n',
    "b.js": 'import { a } from "./a.js";\n/** @import { T } from "./t.d.ts" */\n' +
      "export function b(x) {\n  return x + a;\n}\n",
  };
  assert.equal(
    joinModules("main.js", (name) => modules[name]!),
    '"use strict";\n(() => {\n// a.js\nconst a = 1;\n\n// b.js\nfunction b(x) {\n' +
      "  return x + a;\n}\n\n// main.js\nb(a);\n})();\n",
  );
});

Deno.test("two modules declaring one name, or an import or export the join cannot keep, fail the join naming them", () => {
  const twice = {
    "main.js": 'import { a } from "./a.js";\nconst a = 2;\n',
    "a.js": "export let a = 1;\n",
  };
  assert.throws(
    () => joinModules("main.js", (name) => twice[name as keyof typeof twice]),
    /a is declared by both a\.js and main\.js/,
  );
  assert.throws(() => joinModules("main.js", () => 'import a from "./a.js";\n'), /main\.js: only/);
  assert.throws(() => joinModules("main.js", () => "export { x };\n"), /main\.js: only/);
  assert.throws(() => joinModules("main.js", () => "const { x } = y;\n"), /main\.js: only/);
});
