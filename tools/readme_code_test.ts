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

/** A document whose blocks are checked: its Markdown and the name its failures carry. */
interface Document {
  readonly markdown: string;
  readonly name: string;
}

/** Where a block of document `index` is checked, inside `scratch` unless it names a folder. */
function placeOf(block: CodeBlock, scratch: string, run: string, index: number): string {
  if (block.dir !== undefined) {
    return join(root, block.dir, `.readme-${run}-${index}-line-${block.line}.ts`);
  }
  return join(scratch, String(index), block.file ?? `line-${block.line}.ts`);
}

/**
 * One `deno check` of the blocks of every document (one compiler start instead of one a
 * document): for each document undefined when its blocks compile, else the failure's text, naming
 * each block by its line in the document and pointing the diagnostics at its lines. A document's
 * blocks import each other by the file names they give; documents do not see each other's.
 */
async function checkDocuments(
  documents: readonly Document[],
): Promise<Map<string, string | undefined>> {
  const run = crypto.randomUUID().slice(0, 8);
  const scratch = join(root, `.readme-check-${run}`);
  const placed = new Map<string, { block: CodeBlock; document: string }>();
  documents.forEach(({ markdown, name }, index) => {
    for (const block of codeBlocks(markdown).filter((block) => !block.ignored)) {
      placed.set(placeOf(block, scratch, run, index), { block, document: name });
    }
  });
  const results = new Map<string, string | undefined>(
    documents.map(({ name }) => [name, undefined]),
  );
  try {
    for (const [path, { block }] of placed) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, block.code);
    }
    if (placed.size === 0) return results;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", ...placed.keys()],
      cwd: root,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (output.code === 0) return results;
    const text = (new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr))
      .split("\nStack backtrace:")[0]!;
    for (const { name } of documents) {
      results.set(name, failureOf(text, name, placed));
    }
    // A failure no block is named in (a module not found, a crash) fails every document.
    if ([...results.values()].every((failure) => failure === undefined)) {
      for (const { name } of documents) {
        results.set(name, `deno check failed on no block of ${name} in particular:\n${text}`);
      }
    }
    return results;
  } finally {
    await rm(scratch, { recursive: true, force: true });
    for (const path of placed.keys()) {
      if (relative(scratch, path).startsWith("..")) await rm(path, { force: true });
    }
  }
}

/**
 * The part of the compiler's `text` about `document`'s blocks, pointed at the document's lines;
 * undefined when none of them failed. A diagnostic's own place is indented by four, its related
 * places (a declaration) deeper.
 */
function failureOf(
  text: string,
  document: string,
  placed: ReadonlyMap<string, { block: CodeBlock; document: string }>,
): string | undefined {
  const failed = new Set<number>();
  const diagnostics = text.split(/\n\n+/);
  const own = diagnostics.filter((diagnostic) =>
    [...placed].some(([path, place]) =>
      place.document === document && diagnostic.includes(`at ${pathToFileURL(path).href}:`)
    )
  );
  if (own.length === 0) return undefined;
  let report = own.join("\n");
  for (const [path, { block, document: of }] of placed) {
    if (of !== document) continue;
    const url = pathToFileURL(path).href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`^ {4}at ${url}:`, "m").test(report)) failed.add(block.line);
    report = report.replace(
      new RegExp(`${url}:(\\d+):(\\d+)`, "g"),
      (_, line: string, column: string) => `${document}:${block.line + Number(line)}:${column}`,
    );
  }
  const names = [...failed].sort((a, b) => a - b).map((line) => `${document}:${line}`);
  return `The TypeScript block(s) at ${
    names.length > 0 ? names.join(", ") : "(no line named)"
  } do not type-check:\n${report}`;
}

/** `deno check` of the blocks of one document (see {@linkcode checkDocuments}). */
async function checkBlocks(markdown: string, document: string): Promise<string | undefined> {
  return (await checkDocuments([{ markdown, name: document }])).get(document);
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

const packageReadmes = ["kernel", "http", "jobs", "drizzle", "knex"].map((pkg) =>
  `${pkg}/README.md`
);
const pages = await docsPages();
assert.ok(pages.includes("docs/guides/process-managers.md"), "the docs tree is read");
const documents: Document[] = [];
for (const name of ["README.md", ...packageReadmes, ...pages]) {
  const markdown = await readFile(join(root, name), "utf8");
  if (name.startsWith("docs/") && codeBlocks(markdown).length === 0) continue;
  documents.push({ markdown, name });
}
/** Every document's blocks in one `deno check`, started by the first test that needs it. */
let checked: Promise<Map<string, string | undefined>> | undefined;

for (const { markdown, name } of documents) {
  Deno.test(`${name}'s TypeScript blocks type-check`, async () => {
    if (packageReadmes.includes(name)) {
      assert.ok(codeBlocks(markdown).length > 0, `${name} has TypeScript blocks`);
    }
    checked ??= checkDocuments(documents);
    const failure = (await checked).get(name);
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

Deno.test("Documents checked together: a failure is told to its own document only, and equal file names do not clash", async () => {
  const good = ["```ts", "// src/value.ts", "export const value: number = 1;", "```", ""].join(
    "\n",
  );
  const bad = ["```ts", "// src/value.ts", 'export const value: number = "one";', "```", ""].join(
    "\n",
  );
  const results = await checkDocuments([
    { markdown: good, name: "GOOD.md" },
    { markdown: bad, name: "BAD.md" },
  ]);
  assert.equal(results.get("GOOD.md"), undefined);
  assert.match(results.get("BAD.md") ?? "", /^The TypeScript block\(s\) at BAD\.md:1 do not/);
  assert.match(results.get("BAD.md") ?? "", /BAD\.md:3:14/);
  assert.doesNotMatch(results.get("BAD.md") ?? "", /GOOD\.md/);
});

Deno.test("A check that fails on no block in particular fails every document checked with it", async () => {
  const missing = ["```ts", 'import "./nowhere-to-be-found.ts";', "```", ""].join("\n");
  const results = await checkDocuments([{ markdown: missing, name: "MISSING.md" }]);
  assert.match(results.get("MISSING.md") ?? "", /nowhere-to-be-found/);
});
