/**
 * `deno task test` names the long files first, so that they start at once and do not end the run
 * alone, then `.` for the rest. Deno applies a workspace member's `test.include` only when it is
 * given no path: once paths are given, a folder is searched by the default names (`*_test.ts`,
 * `*.test.ts`) and a member's other files (the example's `*.spec.ts`) must be named by their own
 * globs. These tests keep the task running every file `deno test` alone would run.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

interface DenoJson {
  readonly workspace?: readonly string[];
  readonly tasks?: Readonly<Record<string, string>>;
  readonly test?: { readonly include?: readonly string[] };
}

async function denoJson(folder: string): Promise<DenoJson> {
  return JSON.parse(await readFile(join(root, folder, "deno.json"), "utf8")) as DenoJson;
}

/** The paths the `test` task gives `deno test`, unquoted. */
async function testTaskPaths(): Promise<string[]> {
  const task = (await denoJson(".")).tasks?.test ?? "";
  const command = task.slice(task.indexOf("deno test"));
  return command.split(/\s+/).slice(2).filter((word) => !word.startsWith("-"))
    .map((word) => word.replace(/^'(.*)'$/, "$1"));
}

Deno.test("deno task test runs '.' and every workspace member's own test.include", async () => {
  const paths = await testTaskPaths();
  assert.ok(paths.includes("."), `the task runs '.': ${paths.join(" ")}`);
  const members = (await denoJson(".")).workspace ?? [];
  assert.ok(members.length > 0, "the root names its workspace members");
  for (const member of members) {
    const folder = member.replace(/^\.\//, "");
    for (const glob of (await denoJson(folder)).test?.include ?? []) {
      const expected = `${folder}/${glob}`;
      assert.ok(paths.includes(expected), `the task names ${expected} (${member}'s test.include)`);
    }
  }
});

Deno.test("deno task test names files and folders that exist", async () => {
  for (const path of await testTaskPaths()) {
    const fixed = path.split("*")[0]!;
    assert.ok(existsSync(join(root, fixed)), `${path}: ${fixed} is not in the repository`);
  }
});
