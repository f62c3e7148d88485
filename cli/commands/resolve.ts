import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { mergeRegions, type ThreeSides } from "../files/merge_regions.ts";
import { findProjectRoot, readConfig } from "../project/kit_config.ts";
import { depcruiseConfigWrite } from "./depcruise_config.ts";
import { planDerived } from "./docs.ts";

/** What `kit resolve` did with each conflicted file. */
export interface Resolution {
  /** Derived files rewritten from the merged sources as `kit docs` would (conflicted or stale). */
  readonly regenerated: readonly string[];
  /** Files whose conflicts lay in kit's regions: both sides' entries kept. */
  readonly merged: readonly string[];
  /** Files with conflicts outside kit's regions: to merge by hand, then run `kit resolve` again. */
  readonly left: readonly string[];
}

/** Files `kit docs` (or `kit depcruise-config`) writes whole: their conflicts are never merged. */
function isDerived(path: string): boolean {
  return path === "docs/context-map.md" || path === ".dependency-cruiser.cjs" ||
    /^src\/contexts\/([^/]+)\/\1\.(declarations|dependencies)\.ts$/.test(path);
}

/**
 * `kit resolve`: after a merge or rebase that stopped on conflicts, settles those kit can decide.
 * A derived file (a barrel, a dependency manifest, `docs/context-map.md`,
 * `.dependency-cruiser.cjs`) is rewritten from the merged sources; a file whose sides differ only
 * in the entries of kit's regions (a context's permissions or error codes, the platform's
 * registrations, the generated list of a `CONTEXT.md`) gets both sides' entries. Any other
 * conflict is left as git wrote it and named. The derived files are rewritten only once nothing
 * is left, since they are derived from the sources. Nothing is staged: read the diff, then
 * `git add`.
 */
export async function resolveConflicts(cwd: string): Promise<Resolution> {
  const root = findProjectRoot(cwd);
  const conflicted = (await git(root, ["diff", "--name-only", "--diff-filter=U", "--relative"]))
    .split("\n").filter((line) => line !== "").sort();
  const merged: string[] = [];
  const left: string[] = [];
  const writes: FileWrite[] = [];
  for (const path of conflicted) {
    if (isDerived(path)) continue;
    const sides: ThreeSides = {
      base: await stage(root, 1, path),
      ours: await stage(root, 2, path),
      theirs: await stage(root, 3, path),
    };
    const text = await mergeRegions(sides, mergeText);
    if (text === undefined) left.push(path);
    else {
      writes.push({ path, contents: text });
      merged.push(path);
    }
  }
  await applyPlan(root, await formatPlan(root, writes));
  if (left.length > 0) return { regenerated: [], merged, left };
  const config = await readConfig(root);
  const derived = await formatPlan(root, [
    ...await planDerived(root, config),
    depcruiseConfigWrite(config),
  ]);
  const stale: FileWrite[] = [];
  for (const write of derived) {
    const current = existsSync(join(root, write.path))
      ? await readFile(join(root, write.path), "utf8")
      : undefined;
    if (current !== write.contents) stale.push(write);
  }
  await applyPlan(root, stale);
  const regenerated = [...new Set([...conflicted.filter(isDerived), ...stale.map((w) => w.path)])]
    .sort();
  const missing = conflicted.filter(isDerived).filter((path) =>
    !derived.some((w) => w.path === path)
  );
  if (missing.length > 0) {
    throw new CliError(`resolve: kit derives no '${missing[0]}' here; merge it by hand`);
  }
  return { regenerated, merged, left };
}

/** The lines `kit resolve` prints. */
export function formatResolution(resolution: Resolution): string {
  const all = [...resolution.regenerated, ...resolution.merged];
  return [
    ...resolution.regenerated.map((path) => `regenerated ${path} (derived)`),
    ...resolution.merged.map((path) => `merged ${path} (kit regions: both sides' entries)`),
    ...resolution.left.map((path) =>
      `left ${path}: conflicts outside kit's regions; merge it by hand, then run 'kit resolve' again`
    ),
    ...(all.length === 0 && resolution.left.length === 0 ? ["resolve: no conflicted file"] : []),
    ...(all.length > 0 && resolution.left.length === 0
      ? [`review and stage: git add ${all.join(" ")}`]
      : []),
  ].join("\n");
}

async function stage(root: string, number: 1 | 2 | 3, path: string): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["show", `:${number}:./${path}`],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  return output.code === 0 ? new TextDecoder().decode(output.stdout) : "";
}

async function git(root: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (output.code !== 0) {
    const reason = new TextDecoder().decode(output.stderr).trim().split("\n")[0];
    throw new CliError(`resolve: git ${args[0]} failed: ${reason}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/** Merges two texts with `git merge-file` (answers undefined when they conflict). */
async function mergeText(sides: ThreeSides): Promise<string | undefined> {
  const scratch = await Deno.makeTempDir({ prefix: "kit-resolve-" });
  try {
    const [ours, base, theirs] = ["ours", "base", "theirs"].map((name) => join(scratch, name));
    await writeFile(ours!, sides.ours);
    await writeFile(base!, sides.base);
    await writeFile(theirs!, sides.theirs);
    const output = await new Deno.Command("git", {
      args: ["merge-file", "-p", "--quiet", ours!, base!, theirs!],
      stdout: "piped",
      stderr: "null",
    }).output();
    return output.code === 0 ? new TextDecoder().decode(output.stdout) : undefined;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
