import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import denoJson from "../deno.json" with { type: "json" };

/**
 * What `kit docs` last derived, kept in `.kit/derived-cache.json` (the project ignores `.kit/`):
 * a digest of every input of the derivation and the digest of each derived file it wrote or found
 * current. When the inputs have the same digest and every derived file on disk the recorded one,
 * the files are current without parsing a context or running the formatter.
 *
 * The inputs: every file under `src/contexts/` but the derived ones (barrels, manifests,
 * `CONTEXT.md`), `kit.config.json`, `deno.json` (the formatter's settings), whether the tree is a
 * worker's worktree, and the CLI's version with, when it runs from files, its own derivation
 * sources. A derived file edited by hand changes its digest; a source edited changes the inputs'.
 * Either way the cache misses and the derivation runs in full.
 */
export interface DerivedCache {
  readonly inputs: string;
  readonly outputs: Readonly<Record<string, string>>;
}

const cachePath = ".kit/derived-cache.json";

/** Whether a path is one of the files `kit docs` derives in full or in part. */
export function isDerivedOutput(path: string): boolean {
  return path === "docs/context-map.md" ||
    /^src\/contexts\/([^/]+)\/(\1\.(declarations|dependencies)\.ts|CONTEXT\.md)$/.test(path);
}

async function sha256(text: string): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function files(root: string, dir: string, into: string[]): Promise<void> {
  if (!existsSync(join(root, dir))) return;
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) await files(root, path, into);
    else if (entry.isFile()) into.push(path);
  }
}

/** The CLI's own sources that decide what is derived, when it runs from files (else none). */
async function deriverSources(): Promise<string> {
  const here = new URL(".", import.meta.url);
  if (here.protocol !== "file:") return "";
  const parts: string[] = [];
  for (
    const file of [
      "../derive/derive_context.ts",
      "../derive/consumption.ts",
      "../derive/context_map.ts",
      "../derive/adr_numbers.ts",
      "../commands/docs.ts",
      "../files/format_files.ts",
    ]
  ) {
    const path = fileURLToPath(new URL(file, here));
    if (existsSync(path)) parts.push(await readFile(path, "utf8"));
  }
  return parts.join("\0");
}

/** The digest of every input of the derivation. */
export async function derivationInputs(root: string): Promise<string> {
  const paths: string[] = [];
  await files(root, "src/contexts", paths);
  const parts = [
    `kit ${denoJson.version}`,
    await deriverSources(),
    existsSync(join(root, ".kit/worker.json")) ? "worktree" : "trunk",
  ];
  for (
    const path of [
      "kit.config.json",
      "deno.json",
      ...paths.filter((p) => !isDerivedOutput(p)).sort(),
    ]
  ) {
    const full = join(root, path);
    parts.push(path, existsSync(full) ? await readFile(full, "utf8") : "");
  }
  return await sha256(parts.join("\0"));
}

/**
 * Whether the cache says every derived file is current (false when it cannot tell): the inputs
 * are those it recorded, it recorded each of the project's derived files (`contexts`: the
 * contexts of `kit.config.json`), and each is on disk as it recorded.
 */
export async function cachedCurrent(
  root: string,
  inputs: string,
  contexts: readonly string[],
): Promise<boolean> {
  let cache: DerivedCache;
  try {
    cache = JSON.parse(await readFile(join(root, cachePath), "utf8"));
  } catch {
    return false;
  }
  if (cache.inputs !== inputs) return false;
  const expected = contexts.filter((c) => existsSync(join(root, "src/contexts", c))).flatMap((
    c,
  ) => [
    `src/contexts/${c}/${c}.declarations.ts`,
    `src/contexts/${c}/${c}.dependencies.ts`,
  ]);
  if (!existsSync(join(root, ".kit/worker.json"))) expected.push("docs/context-map.md");
  if (expected.some((path) => !(path in cache.outputs))) return false;
  for (const [path, digest] of Object.entries(cache.outputs)) {
    const full = join(root, path);
    if (!existsSync(full)) {
      if (digest !== "") return false;
      continue;
    }
    if (await sha256(await readFile(full, "utf8")) !== digest) return false;
  }
  return true;
}

/**
 * Records a derivation whose files are all current on disk: `planned` maps each derived path to
 * what it holds (a removed file: absent, recorded as such). Best effort: a cache that cannot be
 * written only costs the next run a full derivation.
 */
export async function recordDerivation(
  root: string,
  inputs: string,
  planned: ReadonlyMap<string, string | undefined>,
): Promise<void> {
  const outputs: Record<string, string> = {};
  for (const [path, contents] of planned) {
    outputs[path] = contents === undefined ? "" : await sha256(contents);
  }
  try {
    await mkdir(join(root, ".kit"), { recursive: true });
    await writeFile(join(root, cachePath), JSON.stringify({ inputs, outputs }));
  } catch {
    // Read-only tree: no cache.
  }
}
