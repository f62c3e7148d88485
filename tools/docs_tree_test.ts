/**
 * The documentation holds together: every section the README had lives in the docs tree (the old
 * headings, listed in `tools/readme_old_headings.txt` when the README was cut, each found as a
 * heading), every relative link and `#anchor` of README.md and docs/**\/*.md resolves (the file
 * exists; the anchor is a heading's slug as GitHub makes it), and what a newcomer looks for is on a
 * page the table of contents (docs/README.md) links.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

/** The Markdown files under `dir`, relative to the repository. */
function markdownUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, dir))) {
    const path = join(dir, entry);
    if (statSync(join(root, path)).isDirectory()) files.push(...markdownUnder(path));
    else if (entry.endsWith(".md")) files.push(path);
  }
  return files.sort();
}

/** The lines of `markdown` outside fenced code blocks. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening !== undefined) fence = opening;
    else if (fence !== undefined && line.trim().startsWith(fence)) fence = undefined;
    else if (fence === undefined) lines.push(line);
  }
  return lines;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(
    / /g,
    "-",
  );
}

/** The anchors of a document's headings, duplicates numbered (`-1`, `-2`) as GitHub does. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The link targets of a document's prose (inline code and fenced blocks left out). */
export function linksOf(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, "``");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) targets.push(match[1]!);
  }
  return targets;
}

/**
 * The broken relative links of `document` (a path relative to the repository): each as
 * `document: target (why)`. `read` answers a file's text, undefined when it does not exist.
 */
export function brokenLinks(
  document: string,
  markdown: string,
  read: (path: string) => string | undefined,
): string[] {
  const broken: string[] = [];
  for (const target of linksOf(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path, anchor] = target.split("#", 2) as [string, string | undefined];
    const file = path === "" ? document : relative(root, resolve(root, dirname(document), path));
    const text = path === "" ? markdown : read(file);
    if (text === undefined) {
      broken.push(`${document}: ${target} (no file ${file})`);
      continue;
    }
    if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(text).has(anchor)) {
      broken.push(`${document}: ${target} (no heading with the anchor #${anchor} in ${file})`);
    }
  }
  return broken;
}

function readRepositoryFile(path: string): string | undefined {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? "" : readFileSync(full, "utf8");
}

const documents = ["README.md", ...markdownUnder("docs")];

Deno.test("every section the README had lives in the docs tree, under its heading", () => {
  const headings = readFileSync(join(root, "tools/readme_old_headings.txt"), "utf8")
    .split("\n").filter((line) => line.trim() !== "");
  assert.ok(headings.length >= 20, "the list of the README's old headings is there");
  const tree = [...markdownUnder("docs"), "README.md"].map((path) =>
    readFileSync(join(root, path), "utf8").split("\n").map((line) => line.trim())
  ).flat();
  const text = (heading: string) => heading.replace(/^#+\s*/, "");
  const missing = headings.filter((heading) =>
    !tree.some((line) => /^#+\s/.test(line) && text(line) === text(heading))
  );
  assert.deepEqual(missing, [], "old README headings found nowhere in docs/ (or README.md)");
});

Deno.test("every relative link and anchor of README.md and docs/ resolves", () => {
  const broken = documents.flatMap((document) =>
    brokenLinks(document, readFileSync(join(root, document), "utf8"), readRepositoryFile)
  );
  assert.deepEqual(broken, []);
});

Deno.test("a missing file or anchor is reported, named by document and target", () => {
  const files: Record<string, string> = {
    "docs/guide.md": "# A guide\n\n## Run it: `deno task dev`\n",
  };
  const markdown = [
    "# Start",
    "[ok](docs/guide.md#run-it-deno-task-dev) [ok too](#start) [web](https://example.com/x)",
    "[gone](docs/nothing.md) [bad anchor](docs/guide.md#run) `[code](not/a/link.md)`",
    "```md",
    "[fenced](not/checked.md)",
    "```",
  ].join("\n");
  assert.deepEqual(brokenLinks("README.md", markdown, (path) => files[path]), [
    "README.md: docs/nothing.md (no file docs/nothing.md)",
    "README.md: docs/guide.md#run (no heading with the anchor #run in docs/guide.md)",
  ]);
});

Deno.test("anchors are GitHub's: punctuation dropped, duplicates numbered", () => {
  assert.equal(
    githubSlug("Operating jobs: `@kit/jobs/dashboard` (a page, live updates, a JSON API)"),
    "operating-jobs-kitjobsdashboard-a-page-live-updates-a-json-api",
  );
  assert.deepEqual(
    [...anchorsOf("# A\n## Use kit on Node\n```\n# not a heading\n```\n## A\n")],
    ["a", "use-kit-on-node", "a-1"],
  );
});

Deno.test("what a newcomer looks for is on a page the table of contents links", () => {
  const toc = "docs/README.md";
  const linked = linksOf(readFileSync(join(root, toc), "utf8"))
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
    .map((target) => relative(root, resolve(root, "docs", target.split("#")[0]!)))
    .filter((path) => path.endsWith(".md"));
  const pages = [...new Set(linked)].map((path) => ({
    path,
    text: readFileSync(join(root, path), "utf8"),
  }));
  assert.ok(pages.length >= 20, `${toc} links the pages (${pages.length})`);
  const words: [string, RegExp][] = [
    ["enqueue", /\benqueue/i],
    ["publish", /\bpublish/i],
    ["PORT", /\bPORT\b/],
    ["worker", /\bworker\b/i],
    ["miniflare", /\bminiflare\b/i],
    ["x-tenant-id", /\bx-tenant-id\b/i],
  ];
  const unfound = words.filter(([, pattern]) => !pages.some((page) => pattern.test(page.text)))
    .map(([word]) => word);
  assert.deepEqual(unfound, [], "words on no page linked from docs/README.md");
});
