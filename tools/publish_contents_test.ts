/**
 * What a user downloads: the files `deno publish --dry-run` lists for each package of the
 * workspace hold no test, benchmark, fixture, test data, runtime harness nor upstream copy (each
 * package's `publish.exclude` leaves them out), and still hold every module its `exports` name.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

/** Paths (from the root) no published package may hold, each with why. */
const unpublished: readonly (readonly [RegExp, string])[] = [
  [/_test\.ts$/, "a test"],
  [/_bench\.ts$/, "a benchmark"],
  [/(^|\/)testdata\//, "test data"],
  [/(^|\/)tests\//, "a scenario test"],
  [/_case\.ts$/, "a test case module"],
  [/^http\/types_test\//, "the compile-time rules' test"],
  [/^vendor\/postgres\/upstream\//, "the pristine upstream copy"],
];

/** The files `deno publish --dry-run` lists, by package name (paths from the root). */
async function dryRun(): Promise<Map<string, string[]>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty", "--no-check"],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, text);
  const packages = new Map<string, string[]>();
  let files: string[] | undefined;
  for (const line of text.split("\n")) {
    const start = /Simulating publish of (@[\w-]+\/[\w-]+)@\S+ with files:/.exec(line);
    if (start) packages.set(start[1]!, files = []);
    const file = /^\s+file:\/\/(\S+) \(/.exec(line);
    if (file && files) files.push(file[1]!.slice(root.length));
  }
  return packages;
}

function exportedFiles(dir: string): string[] {
  const config = JSON.parse(readFileSync(join(root, dir, "deno.json"), "utf8"));
  const exports: Record<string, string> = typeof config.exports === "string"
    ? { ".": config.exports }
    : config.exports;
  return Object.values(exports).map((path) => join(dir, path).replace(/^\.\//, ""));
}

const dirs: Record<string, string> = {
  "@kit/kernel": "kernel",
  "@kit/http": "http",
  "@kit/jobs": "jobs",
  "@kit/cli": "cli",
  "@kit/drizzle": "drizzle",
  "@kit/knex": "knex",
  "@kit/postgres": "vendor/postgres",
};

Deno.test("every published package leaves out tests, benchmarks, fixtures, test data, runtimes and upstream copies, and keeps its exports", async () => {
  const packages = await dryRun();
  assert.deepEqual([...packages.keys()].sort(), Object.keys(dirs).sort());
  const leaked: string[] = [];
  for (const [name, files] of packages) {
    for (const file of files) {
      const hit = unpublished.find(([pattern]) => pattern.test(file));
      if (hit) leaked.push(`${name}: ${file} (${hit[1]})`);
    }
    for (const exported of exportedFiles(dirs[name]!)) {
      assert.ok(files.includes(exported), `${name} does not publish its export ${exported}`);
    }
  }
  assert.deepEqual(leaked, [], "published although users must not download them");
});
