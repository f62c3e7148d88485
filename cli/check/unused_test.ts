import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { initializedProject, projectTree, quietly } from "../commands/test_project.ts";
import { main } from "../main.ts";
import { globToRegExp } from "./glob.ts";
import { findUnused } from "./unused.ts";

async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "kit-unused-" });
  await put(dir, { "kit.config.json": '{ "contexts": [] }', ...files });
  return dir;
}

async function put(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

Deno.test("findUnused() follows relative imports from the entry points and reports the rest", async () => {
  const dir = await project({
    "deno.json": JSON.stringify({
      imports: {
        "zod": "npm:zod@4",
        "yaml": "npm:yaml@2",
        "hono/": "npm:/hono@4/",
        "pg": "npm:pg",
      },
      tasks: { docs: "deno run -A scripts/docs.ts --check" },
    }),
    "src/main.ts":
      'import { a } from "./a.ts";\nimport * as all from "./all.ts";\nconsole.log(a, all);\n',
    "src/a.ts": 'import { z } from "zod";\nexport const a = z;\nexport const spare = 1;\n',
    "src/all.ts": "export const one = 1;\nexport const two = 2;\n",
    "src/barrel.ts": 'export * from "./deep.ts";\nexport { b as renamed } from "./b.ts";\n',
    "src/deep.ts": "export const deep = 1;\n",
    "src/b.ts":
      "export const b = 1;\nexport const c = 2;\n/** Kept for plugins.\n * @public\n */\nexport const d = 3;\n",
    "src/lazy.ts": "export default 1;\n",
    "src/orphan.ts": 'import { b } from "./b.ts";\nexport const orphan = b;\n',
    "src/x.spec.ts":
      'import { renamed } from "./barrel.ts";\nimport { Hono } from "hono/tiny";\nawait import("./lazy.ts");\nconsole.log(renamed, Hono);\n',
    "scripts/docs.ts": 'import { parse } from "pg/cursor";\nconsole.log(parse);\n',
    "test/helper_test.ts": "export const helper = 1;\n",
  });
  try {
    assert.deepEqual(await findUnused(join(dir, "src")), {
      files: ["src/orphan.ts"],
      exports: [
        { path: "src/a.ts", line: 3, name: "spare" },
        { path: "src/b.ts", line: 2, name: "c" },
      ],
      dependencies: ["yaml"],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("findUnused() reads entry, ignore, ignoreDependencies and ignoreExportsUsedInFile of knip.json", async () => {
  const files = {
    "deno.json": JSON.stringify({ imports: { "yaml": "npm:yaml@2" } }),
    "src/main.ts": 'import { job } from "./job.ts";\nconsole.log(job);\n',
    "src/job.ts":
      "export interface Payload {\n  id: string;\n}\nexport const job = (p: Payload) => p;\nexport const limit = 3;\nexport const twice = limit * 2;\n",
    "src/port.ts": "export interface Port {\n  x: number;\n}\n",
    "src/legacy/old.ts": "export const old = 1;\n",
  };
  const dir = await project(files);
  try {
    const before = await findUnused(dir);
    assert.deepEqual(before.files, ["src/legacy/old.ts", "src/port.ts"]);
    assert.deepEqual(before.exports.map((e) => e.name), ["Payload", "limit", "twice"]);
    assert.deepEqual(before.dependencies, ["yaml"]);
    await put(dir, {
      "knip.json": JSON.stringify({
        entry: ["src/port.ts"],
        ignore: ["src/legacy/**"],
        ignoreDependencies: ["yaml"],
        ignoreExportsUsedInFile: { interface: true },
      }),
    });
    const after = await findUnused(dir);
    assert.deepEqual(after, {
      files: [],
      exports: [{ path: "src/job.ts", line: 5, name: "limit" }, {
        path: "src/job.ts",
        line: 6,
        name: "twice",
      }],
      dependencies: [],
    });
    await put(dir, { "knip.json": JSON.stringify({ ignoreExportsUsedInFile: true }) });
    assert.deepEqual((await findUnused(dir)).exports.map((e) => e.name), ["twice"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kit check unused refuses a bad knip.json with one line and changes nothing", async () => {
  const dir = await project({
    "deno.json": "{}",
    "knip.json": '{ "entry": "src/main.ts" }',
    "src/main.ts": "console.log(1);\n",
  });
  try {
    const before = await projectTree(dir);
    const run = await quietly(() => main(["check", "unused"], dir));
    assert.equal(run.result, 1);
    assert.deepEqual(run.stderr, [
      `kit: '${join(dir, "knip.json")}': 'entry' must be a list of strings`,
    ]);
    const usage = await quietly(() => main(["check", "everything"], dir));
    assert.deepEqual([usage.result, usage.stderr], [1, ["kit: Usage: kit check unused"]]);
    assert.deepEqual(await projectTree(dir), before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "kit check unused passes on a new project, and fails on an unused file, export or dependency",
  sanitizeResources: false,
  async fn() {
    const dir = await initializedProject();
    try {
      assert.equal((await quietly(() => main(["check", "unused"], dir))).result, 0);
      const s = "src/contexts/identity/domain";
      await put(dir, {
        [`${s}/orphan.ts`]: "export const orphan = 1;\n",
        [`${s}/person.ts`]:
          "export class Person {}\n\nexport function unusedHelper(): number {\n  return 1;\n}\n",
        [`${s}/person.spec.ts`]:
          'import assert from "node:assert/strict";\nimport { Person } from "./person.ts";\n\nDeno.test("Person is built", () => {\n  assert.ok(new Person());\n});\n',
      });
      const denoJson = JSON.parse(await readFile(join(dir, "deno.json"), "utf8"));
      denoJson.imports["date-fns"] = "npm:date-fns@4.1.0";
      await writeFile(join(dir, "deno.json"), JSON.stringify(denoJson, null, 2) + "\n");

      const printed: string[] = [];
      const stderr: string[] = [];
      const [log, error] = [console.log, console.error];
      console.log = (...args: unknown[]) => void printed.push(args.join(" "));
      console.error = (...args: unknown[]) => void stderr.push(args.join(" "));
      let result;
      try {
        result = await main(["check", "unused"], dir);
      } finally {
        [console.log, console.error] = [log, error];
      }
      const run = { result, stderr };
      assert.equal(run.result, 1);
      assert.deepEqual(run.stderr, [
        "kit: check unused: 1 unused file(s), 1 unused export(s), 1 unused dependency",
      ]);
      assert.equal(
        printed.join("\n"),
        [
          "Unused files (1)",
          `${s}/orphan.ts`,
          "Unused exports (1)",
          `${s}/person.ts:3  unusedHelper`,
          "Unused dependencies (1)",
          "date-fns  deno.json",
        ].join("\n"),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("globToRegExp() matches folders with ** and one segment with *", () => {
  assert.ok(globToRegExp("**/*.spec.ts").test("a.spec.ts"));
  assert.ok(globToRegExp("**/*.spec.ts").test("src/a/b.spec.ts"));
  assert.ok(!globToRegExp("apps/*/main.ts").test("apps/a/b/main.ts"));
  assert.ok(globToRegExp("src/legacy/**").test("src/legacy/a/b.ts"));
  assert.ok(!globToRegExp("src/a.ts").test("src/a_ts"));
});
