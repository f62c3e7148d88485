import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import denoJson from "../deno.json" with { type: "json" };

/**
 * What `kit docs` last derived, kept in `.kit/derived-cache.json` (the project ignores `.kit/`):
 * a digest of every input of the derivation and the digest of each derived file it wrote or found
 * current. When the inputs have the same digest and every derived file on disk the recorded one,
 * the files are current without parsing a context or running the formatter. The inputs are kept
 * per context, so that a generator, which derives only the contexts it writes in, can record a
 * derivation whose other contexts' files the cache found current before it ran.
 *
 * The inputs: every file under `src/contexts/` but the derived ones (barrels, manifests,
 * `CONTEXT.md`), `kit.config.json`, `deno.json` (the formatter's settings), whether the tree is a
 * worker's worktree, and the CLI's version with, when it runs from files, its own derivation
 * sources. A derived file edited by hand changes its digest; a source edited changes the inputs'.
 * Either way the cache misses and the derivation runs in full.
 */
export interface DerivedCache {
  readonly inputs: DerivationInputs;
  readonly outputs: Readonly<Record<string, string>>;
}

/**
 * The digests of a derivation's inputs: what every context's derivation depends on (`global`:
 * the CLI, `kit.config.json`, `deno.json`, trunk or worktree) and each context's own sources.
 */
export interface DerivationInputs {
  readonly global: string;
  readonly contexts: Readonly<Record<string, string>>;
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
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) await files(root, path, into);
    else if (entry.isFile()) into.push(path);
  }
}

/** The CLI's own sources that decide what is derived, when it runs from files (else none). */
function deriverSources(): string {
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
    if (existsSync(path)) parts.push(readFileSync(path, "utf8"));
  }
  return parts.join("\0");
}

/** The digests of every input of the derivation. */
export async function derivationInputs(root: string): Promise<DerivationInputs> {
  const contexts: Record<string, string> = {};
  if (existsSync(join(root, "src/contexts"))) {
    for (const entry of readdirSync(join(root, "src/contexts"), { withFileTypes: true })) {
      if (entry.isDirectory()) contexts[entry.name] = await contextDigest(root, entry.name);
    }
  }
  return { global: await globalDigest(root), contexts };
}

/**
 * The inputs after a plan wrote `written` (paths from the root) over inputs taken before it:
 * only the contexts it wrote in are read again (and the global inputs, when it wrote one).
 */
export async function derivationInputsAfter(
  root: string,
  before: DerivationInputs,
  written: readonly string[],
): Promise<DerivationInputs> {
  const contexts: Record<string, string> = { ...before.contexts };
  const touched = new Set(
    written.map((path) => /^src\/contexts\/([^/]+)\//.exec(path)?.[1]).filter((c) =>
      c !== undefined
    ),
  );
  for (const context of touched) {
    if (existsSync(join(root, "src/contexts", context!))) {
      contexts[context!] = await contextDigest(root, context!);
    } else delete contexts[context!];
  }
  const global = written.some((path) => path === "kit.config.json" || path === "deno.json")
    ? await globalDigest(root)
    : before.global;
  return { global, contexts };
}

async function globalDigest(root: string): Promise<string> {
  const parts = [
    `kit ${denoJson.version}`,
    deriverSources(),
    existsSync(join(root, ".kit/worker.json")) ? "worktree" : "trunk",
  ];
  for (const path of ["kit.config.json", "deno.json"]) {
    const full = join(root, path);
    parts.push(path, existsSync(full) ? readFileSync(full, "utf8") : "");
  }
  return await sha256(parts.join("\0"));
}

async function contextDigest(root: string, context: string): Promise<string> {
  const paths: string[] = [];
  await files(root, `src/contexts/${context}`, paths);
  const parts: string[] = [];
  for (const path of paths.filter((p) => !isDerivedOutput(p)).sort()) {
    parts.push(path, readFileSync(join(root, path), "utf8"));
  }
  return await sha256(parts.join("\0"));
}

/** Whether two derivations had the same inputs. */
function sameInputs(a: DerivationInputs, b: DerivationInputs): boolean {
  const names = Object.keys(a.contexts);
  return a.global === b.global && names.length === Object.keys(b.contexts).length &&
    names.every((name) => a.contexts[name] === b.contexts[name]);
}

/** The cache as recorded, if there is one this version of kit can read. */
export function readDerivedCache(root: string): DerivedCache | undefined {
  try {
    const cache = JSON.parse(readFileSync(join(root, cachePath), "utf8"));
    return typeof cache?.inputs?.global === "string" ? cache : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the cache says every derived file is current (false when it cannot tell): the inputs
 * are those it recorded, it recorded each of the project's derived files (`contexts`: the
 * contexts of `kit.config.json`), and each is on disk as it recorded.
 */
export async function cachedCurrent(
  root: string,
  inputs: DerivationInputs,
  contexts: readonly string[],
  cache?: DerivedCache,
): Promise<boolean> {
  cache ??= readDerivedCache(root);
  if (cache === undefined || !sameInputs(cache.inputs, inputs)) return false;
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
    if (await sha256(readFileSync(full, "utf8")) !== digest) return false;
  }
  return true;
}

/**
 * The contexts whose derived files the cache vouches for: their sources and the global inputs are
 * those it recorded, and their derived files (barrel, manifest, `CONTEXT.md`) are on disk as it
 * recorded them. A derivation needs to run on the others only.
 */
export async function currentContexts(
  root: string,
  inputs: DerivationInputs,
  cache: DerivedCache | undefined,
): Promise<Set<string>> {
  const current = new Set<string>();
  if (cache === undefined || cache.inputs.global !== inputs.global) return current;
  for (const [context, digest] of Object.entries(inputs.contexts)) {
    if (cache.inputs.contexts[context] !== digest) continue;
    const base = `src/contexts/${context}`;
    const outputs = [
      `${base}/${context}.declarations.ts`,
      `${base}/${context}.dependencies.ts`,
      `${base}/CONTEXT.md`,
    ];
    let same = true;
    for (const path of outputs) {
      const recorded = cache.outputs[path];
      const full = join(root, path);
      if (recorded === undefined && path.endsWith("CONTEXT.md") && !existsSync(full)) continue;
      if (
        recorded === undefined || !existsSync(full) ||
        await sha256(readFileSync(full, "utf8")) !== recorded
      ) {
        same = false;
        break;
      }
    }
    if (same) current.add(context);
  }
  return current;
}

/**
 * Records a derivation whose files are all current on disk: `planned` maps each derived path to
 * what it holds (a removed file: absent, recorded as such); `kept`, the digests of derived files
 * the plan did not derive, found current by the cache before it ran. Best effort: a cache that
 * cannot be written only costs the next run a full derivation.
 */
export async function recordDerivation(
  root: string,
  inputs: DerivationInputs,
  planned: ReadonlyMap<string, string | undefined>,
  kept: Readonly<Record<string, string>> = {},
): Promise<void> {
  const outputs: Record<string, string> = { ...kept };
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
