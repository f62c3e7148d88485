/**
 * kit's changes to postgres.js 3.4.9, kept as one patch: `vendor/postgres/kit.patch` applied to
 * the pristine upstream files gives the vendored `src/`, `types/index.d.ts` and
 * `cf/polyfills.js`, byte for byte (`cf/src/` is written from `src/` by `tools/postgres_cf.ts`).
 * The pristine files are offline in the repository: `vendor/postgres/upstream/<path>.orig` for
 * each file the patch changes, the vendored file itself for the others, each checked against
 * `upstream/SHA256SUMS` (the hashes of the npm package's files). Every hunk carries a
 * `kit patch N` marker, N a patch the README numbers, and each numbered patch has a test of
 * `vendor/postgres/kit_patch_test.ts` named after it.
 *
 * `deno run -A tools/postgres_patch.ts` writes `kit.patch` from the vendored files (with
 * `diff -u`); with `--check` it writes nothing and fails naming each problem.
 *
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const vendor = fileURLToPath(new URL("../vendor/postgres/", import.meta.url));

/** One hunk of a unified diff: where it applies and its lines (with their ' ', '-', '+'). */
export interface Hunk {
  readonly path: string;
  /** The hunk's first line in the original file (1-based), as its header says. */
  readonly oldStart: number;
  readonly lines: readonly string[];
}

/** The hunks of a unified diff, in order; a malformed line is an error naming it. */
export function parsePatch(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let path: string | undefined;
  let current: string[] | undefined;
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const [i, line] of lines.entries()) {
    const header = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
    if (line.startsWith("--- ")) current = undefined;
    else if (line.startsWith("+++ ")) path = line.slice(4).replace(/^b\//, "").split("\t")[0];
    else if (header && path) {
      current = [];
      hunks.push({ path, oldStart: Number(header[1]), lines: current });
    } else if (current && /^[ +\-\\]/.test(line)) current.push(line);
    else throw new Error(`kit.patch line ${i + 1}: not part of a unified diff: ${line}`);
  }
  return hunks;
}

/**
 * The file `original` with the hunks of one file applied exactly where their headers say (no
 * fuzz): a context or removed line that differs is an error naming the hunk.
 */
export function applyHunks(original: string, hunks: readonly Hunk[]): string {
  const source = original.split("\n");
  const out: string[] = [];
  let at = 0;
  let noNewline = false;
  for (const hunk of hunks) {
    const start = hunk.oldStart - 1 - (hunk.lines.some((l) => /^[ -]/.test(l)) ? 0 : -1);
    if (start < at) throw new Error(`${hunk.path}: hunk at line ${hunk.oldStart} overlaps`);
    out.push(...source.slice(at, start));
    at = start;
    for (const [i, line] of hunk.lines.entries()) {
      if (line.startsWith("\\")) {
        if (hunk.lines[i - 1]?.startsWith("+")) noNewline = true;
        continue;
      }
      const text = line.slice(1);
      if (line[0] !== "+") {
        if (source[at] !== text) {
          throw new Error(
            `${hunk.path}: hunk at line ${hunk.oldStart} does not apply at line ${at + 1}`,
          );
        }
        at++;
      }
      if (line[0] !== "-") out.push(text);
    }
  }
  out.push(...source.slice(at));
  const text = out.join("\n");
  return noNewline ? text.replace(/\n$/, "") : text;
}

/** The recorded sha256 of each pristine upstream file kit vendors, by path in the package. */
export function upstreamSums(): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of readFileSync(join(vendor, "upstream", "SHA256SUMS"), "utf8").split("\n")) {
    const entry = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
    if (entry) sums.set(entry[2]!, entry[1]!);
  }
  return sums;
}

/** The pristine upstream text of `path`: its `.orig` copy if it has one, else the vendored file. */
export function pristine(path: string): string {
  const orig = join(vendor, "upstream", `${path}.orig`);
  return readFileSync(existsSync(orig) ? orig : join(vendor, path), "utf8");
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The patch numbers a hunk's added lines mark (`kit patch 4`, `kit patch 5, 8`). */
export function hunkMarks(hunk: Hunk): number[] {
  return hunk.lines.filter((l) => l.startsWith("+")).flatMap((l) =>
    [...l.matchAll(/kit patch (\d+(?:, \d+)*)/g)].flatMap((m) => m[1]!.split(", ").map(Number))
  );
}

/** The patches README.md numbers (its "What was patched" list). */
function documentedPatches(): number[] {
  const readme = readFileSync(join(vendor, "README.md"), "utf8");
  const list = readme.split("## What was patched")[1]?.split("\n## ")[0] ?? "";
  return [...list.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
}

/**
 * The patches no test can reach, each with why: a guard behind others, kept as the last line
 * against a crash that ends the process.
 */
const unreachable: Readonly<Record<number, string>> = {
  2: "every write of a closed connection is refused before it is scheduled (1), a close clears " +
    "the scheduled write (3), and a cursor's next fetch after a close is not written (7)",
};

/** The patch numbers the tests of `kit_patch_test.ts` name (`postgres.js (kit patch 1, 2): …`). */
function testedPatches(): number[] {
  const tests = readFileSync(join(vendor, "kit_patch_test.ts"), "utf8");
  return [...tests.matchAll(/"postgres\.js \(kit patch (\d+(?:, \d+)*)\)/g)]
    .flatMap((m) => m[1]!.split(", ").map(Number));
}

/** Each way the vendored driver differs from kit.patch applied to upstream, in words. */
export async function patchProblems(): Promise<string[]> {
  const problems: string[] = [];
  const sums = upstreamSums();
  const hunks = parsePatch(readFileSync(join(vendor, "kit.patch"), "utf8"));
  for (const hunk of hunks) {
    if (!sums.has(hunk.path)) problems.push(`kit.patch changes ${hunk.path}, not an upstream file`);
  }
  for (const [path, sum] of sums) {
    const original = pristine(path);
    if (await sha256(original) !== sum) {
      problems.push(`${path}: the pristine copy is not upstream's (sha256 differs)`);
      continue;
    }
    try {
      const patched = applyHunks(original, hunks.filter((h) => h.path === path));
      if (patched !== readFileSync(join(vendor, path), "utf8")) {
        problems.push(`${path}: differs from kit.patch applied to upstream`);
      }
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const documented = documentedPatches();
  const tested = testedPatches();
  for (const hunk of hunks) {
    const marks = hunkMarks(hunk);
    if (marks.length === 0) {
      problems.push(`${hunk.path}: the hunk at line ${hunk.oldStart} has no kit patch N marker`);
    }
    for (const n of marks.filter((n) => !documented.includes(n))) {
      problems.push(`${hunk.path}: kit patch ${n} (line ${hunk.oldStart}) is not in README.md`);
    }
  }
  for (const n of documented.filter((n) => !tested.includes(n) && !(n in unreachable))) {
    problems.push(`kit patch ${n} has no test in kit_patch_test.ts named after it`);
  }
  return problems;
}

/** kit.patch as `diff -u` writes it from the pristine and the vendored files. */
async function writtenPatch(): Promise<string> {
  let patch = "";
  for (const path of upstreamSums().keys()) {
    if (!existsSync(join(vendor, "upstream", `${path}.orig`))) continue;
    const { stdout } = await new Deno.Command("diff", {
      args: ["-u", "--label", `a/${path}`, "--label", `b/${path}`, `upstream/${path}.orig`, path],
      cwd: vendor,
      stdout: "piped",
    }).output();
    patch += new TextDecoder().decode(stdout);
  }
  return patch;
}

if (import.meta.main) {
  if (!Deno.args.includes("--check")) {
    writeFileSync(join(vendor, "kit.patch"), await writtenPatch());
  }
  const problems = await patchProblems();
  if (problems.length > 0) {
    console.error(`vendor/postgres/kit.patch:\n  ${problems.join("\n  ")}`);
    Deno.exit(1);
  }
  console.log("vendor/postgres: kit.patch applied to upstream 3.4.9 is the vendored tree");
}
