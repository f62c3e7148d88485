/**
 * The READMEs' (and every page's of docs/) TypeScript blocks type-check, as `deno test --doc` checks the examples of the doc
 * comments. Each ```ts (or ```typescript) block is written to a file in a temporary folder inside
 * the repository, so the workspace's import map resolves `@kit/kernel`, `@kit/http`, `@kit/jobs`,
 * zod and the rest, and all are checked by one `deno check`. A failure names each block by its line
 * in README.md, with the compiler's diagnostics pointed at README.md's lines. The rules:
 *
 * - A block whose first line names a file (`// src/app.ts`) is written at that path, so a later
 *   block imports it by that name (`import { createApp } from "./app.ts"`).
 * - A block whose fence says `dir=<folder>` (```` ```ts dir=example/src/contexts/scheduling ````)
 *   shows code of that repository folder, importing its files by relative path: it is written in
 *   that folder, under a hidden name, for the check's time.
 * - A block whose fence says `ignore` (```` ```ts ignore ````) is a fragment that cannot compile
 *   on its own: it is not checked. Prefer the imports that make a block compile.
 * - Blocks of other languages (sh, json, toml) are not checked.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type CodeBlock, codeBlocks } from "./readme_code_blocks.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

/** Where a block is checked, inside `scratch` unless it names a repository folder. */
function placeOf(block: CodeBlock, scratch: string, run: string): string {
  if (block.dir !== undefined) {
    return join(root, block.dir, `.readme-${run}-line-${block.line}.ts`);
  }
  return join(scratch, block.file ?? `line-${block.line}.ts`);
}

/**
 * `deno check` of the blocks of `markdown`: undefined when they all compile, else the failure's
 * text, naming each block by its line in `document` and pointing the diagnostics at its lines.
 */
async function checkBlocks(markdown: string, document: string): Promise<string | undefined> {
  const blocks = codeBlocks(markdown).filter((block) => !block.ignored);
  const run = crypto.randomUUID().slice(0, 8);
  const scratch = join(root, `.readme-check-${run}`);
  const placed = new Map(blocks.map((block) => [placeOf(block, scratch, run), block]));
  try {
    for (const [path, block] of placed) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, block.code);
    }
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", ...placed.keys()],
      cwd: root,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (output.code === 0) return undefined;
    let text = (new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr))
      .split("\nStack backtrace:")[0]!;
    const failed = new Set<number>();
    for (const [path, block] of placed) {
      const url = pathToFileURL(path).href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      // A diagnostic's own place is indented by four; its related places (a declaration) deeper.
      if (new RegExp(`^ {4}at ${url}:`, "m").test(text)) failed.add(block.line);
      text = text.replace(
        new RegExp(`${url}:(\\d+):(\\d+)`, "g"),
        (_, line: string, column: string) => `${document}:${block.line + Number(line)}:${column}`,
      );
    }
    const names = [...failed].sort((a, b) => a - b).map((line) => `${document}:${line}`);
    return `The TypeScript block(s) at ${
      names.length > 0 ? names.join(", ") : "(no line named)"
    } do not type-check:\n${text}`;
  } finally {
    await rm(scratch, { recursive: true, force: true });
    for (const path of placed.keys()) {
      if (relative(scratch, path).startsWith("..")) await rm(path, { force: true });
    }
  }
}

Deno.test("README.md's TypeScript blocks type-check", async () => {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const failure = await checkBlocks(readme, "README.md");
  if (failure !== undefined) assert.fail(failure);
});

for (const pkg of ["kernel", "http", "jobs", "drizzle", "knex"]) {
  Deno.test(`${pkg}/README.md's TypeScript blocks type-check`, async () => {
    const readme = await readFile(join(root, pkg, "README.md"), "utf8");
    assert.ok(codeBlocks(readme).length > 0, `${pkg}/README.md has TypeScript blocks`);
    const failure = await checkBlocks(readme, `${pkg}/README.md`);
    if (failure !== undefined) assert.fail(failure);
  });
}

/** The Markdown files of the docs tree, relative to the repository. */
async function docsPages(dir = "docs"): Promise<string[]> {
  const pages: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) pages.push(...await docsPages(path));
    else if (entry.name.endsWith(".md")) pages.push(path);
  }
  return pages.sort();
}

const pages = await docsPages();
assert.ok(pages.includes("docs/guides/process-managers.md"), "the docs tree is read");
for (const page of pages) {
  const markdown = await readFile(join(root, page), "utf8");
  if (codeBlocks(markdown).length === 0) continue;
  Deno.test(`${page}'s TypeScript blocks type-check`, async () => {
    const failure = await checkBlocks(markdown, page);
    if (failure !== undefined) assert.fail(failure);
  });
}

Deno.test("A README block that does not type-check fails, named by its line, unless it is ignored", async () => {
  const markdown = [
    "# A project",
    "",
    "```sh",
    "deno task dev",
    "```",
    "",
    "```ts",
    'import { z } from "zod";',
    "export const name: number = z.string().parse('x');",
    "```",
    "",
    "```ts ignore",
    "fragment(",
    "```",
    "",
  ].join("\n");
  const failure = await checkBlocks(markdown, "GUIDE.md");
  assert.match(failure ?? "", /^The TypeScript block\(s\) at GUIDE\.md:7 do not type-check:/);
  assert.match(failure ?? "", /TS2322.*'string' is not assignable to type 'number'/);
  assert.match(failure ?? "", /GUIDE\.md:9:14/);
  assert.doesNotMatch(failure ?? "", /GUIDE\.md:1[2-4]/, "the ignored fragment is not checked");
});

Deno.test("A README block naming a file is imported by the next one by that name", async () => {
  const markdown = [
    "```ts",
    "// src/greeting.ts",
    'export const greeting = "hello";',
    "```",
    "",
    "```typescript",
    'import { greeting } from "./src/greeting.ts";',
    "export const length: number = greeting.length;",
    "```",
    "",
  ].join("\n");
  assert.equal(await checkBlocks(markdown, "GUIDE.md"), undefined);
});
