import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { CliError } from "../cli_error.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { mergeRegions, type ThreeSides } from "../files/merge_regions.ts";
import { conflictMarkers } from "../derive/conflict_markers.ts";
import {
  migrationClashes,
  migrationFiles,
  planRenumber,
  toRenumber,
} from "../derive/migration_numbers.ts";
import { findProjectRoot, type KitConfig, readConfig } from "../project/kit_config.ts";
import { settleParts } from "../files/merge_parts.ts";
import { partsOwner, rewriteParts } from "./resolve_parts.ts";
import { depcruiseConfigWrite } from "./depcruise_config.ts";
import { planDerived } from "./docs.ts";

/** What `kit resolve` did with each conflicted file. */
export interface Resolution {
  /** Derived files rewritten from the merged sources as `kit docs` would (conflicted or stale). */
  readonly regenerated: readonly string[];
  /** Files whose conflicts lay in kit's regions: both sides' entries kept. */
  readonly merged: readonly string[];
  /** Conflicted files with no conflict marker left (merged by hand, or by an earlier pass). */
  readonly kept: readonly string[];
  /** Migrations moved on top of the list: each shared its number with one that stays. */
  readonly renumbered: readonly Renumbered[];
  /**
   * Files whose kit parts (`// kit:begin route schemas`…) both sides changed: rewritten from the
   * merged sources they follow (the message and its handler), as `--update` writes them.
   */
  readonly rewritten: readonly string[];
  /**
   * Files whose kit parts both sides changed, left with git's markers until the files of `left`
   * are merged (their parts follow those sources): the next `kit resolve` rewrites them.
   */
  readonly waiting: readonly string[];
  /** Files with conflicts outside kit's regions: to merge by hand, then run `kit resolve` again. */
  readonly left: readonly string[];
  /** Files holding a conflict marker git no longer lists as conflicted, as `path:line`. */
  readonly markers: readonly string[];
}

/** A migration `kit resolve` moved. */
export interface Renumbered {
  /** Its path before. */
  readonly from: string;
  /** Its path now. */
  readonly to: string;
  /** The migration that kept the number. */
  readonly keeps: readonly string[];
}

/** Files `kit docs` (or `kit depcruise-config`) writes whole: their conflicts are never merged. */
function isDerived(path: string): boolean {
  return path === "docs/context-map.md" || path === ".dependency-cruiser.cjs" ||
    /^src\/contexts\/([^/]+)\/\1\.(declarations|dependencies)\.ts$/.test(path);
}

/** Whether a text holds a line git writes at a conflict. */
function hasMarkers(text: string): boolean {
  return /^(<{7}|>{7})( |$)/m.test(text);
}

/**
 * `kit resolve`: after a merge or rebase that stopped on conflicts, settles those kit can decide.
 * A derived file (a barrel, a dependency manifest, `docs/context-map.md`,
 * `.dependency-cruiser.cjs`) is rewritten from the merged sources; a file whose sides differ only
 * in the entries of kit's regions (a context's permissions or error codes, the platform's
 * registrations, the migration list, the generated list of a `CONTEXT.md`) gets both sides'
 * entries. A conflicted file that holds no conflict marker any more (merged by hand, or by an
 * earlier pass) is kept as it is, staged or not. Any other conflict is left as git wrote it and
 * named. The derived files are rewritten only once nothing is left, since they are derived from
 * the sources; two migrations under one number then see all but the one that reached the trunk
 * first moved on top (the rule of `toRenumber`), or those `renumber` names. It succeeds only when
 * no file of the project holds a conflict marker (a source staged with its markers is named, and
 * nothing is derived from it). Nothing is staged: read the diff, then `git add`.
 */
export async function resolveConflicts(
  cwd: string,
  options: { renumber?: readonly string[] } = {},
): Promise<Resolution> {
  const root = findProjectRoot(cwd);
  const conflicted = (await git(root, ["diff", "--name-only", "--diff-filter=U", "--relative"]))
    .split("\n").filter((line) => line !== "").sort();
  const { merged, kept, left, writes, clashing } = await settleSources(root, conflicted);
  await applyPlan(root, await formatPlan(root, writes));
  const waiting = clashing.map((write) => write.path);
  const unsettled = { regenerated: [], merged, kept, renumbered: [], rewritten: [], left };
  if (left.length > 0) return { ...unsettled, waiting, markers: [] };
  // A source staged with its markers (`git add -A` too early): nothing derives from it yet.
  const staged = conflictMarkers(root).filter((at) =>
    !isDerived(at.replace(/:\d+$/, "")) && !waiting.includes(at.replace(/:\d+$/, ""))
  );
  if (staged.length > 0) return { ...unsettled, waiting, markers: staged };
  const config = await readConfig(root);
  const rewritten = await rewriteParts(root, config, clashing);
  const renumbered = await renumberClashes(root, config, options.renumber ?? []);
  const { derived, stale } = await rewriteStaleDerived(root, config);
  const settled = new Set([...merged, ...kept, ...rewritten]);
  const regenerated = [...new Set([...conflicted.filter(isDerived), ...stale.map((w) => w.path)])]
    .filter((path) => !settled.has(path)).sort();
  checkDerived(conflicted, derived);
  return {
    regenerated,
    merged,
    kept,
    renumbered,
    rewritten,
    waiting: [],
    left,
    markers: conflictMarkers(root),
  };
}

/** The conflicted sources, settled where kit can: what each became, and the writes. */
interface Settled {
  /** Conflicts in kit's regions only: both sides' entries kept. */
  readonly merged: string[];
  /** No conflict marker left. */
  readonly kept: string[];
  /** To merge by hand. */
  readonly left: string[];
  /** The merged files. */
  readonly writes: FileWrite[];
  /** Files whose kit parts both sides changed, merged but for those parts. */
  readonly clashing: FileWrite[];
}

/** Settles each conflicted file that is not derived, from git's three stages. */
async function settleSources(root: string, conflicted: readonly string[]): Promise<Settled> {
  const settled: Settled = { merged: [], kept: [], left: [], writes: [], clashing: [] };
  for (const path of conflicted) {
    if (!isDerived(path)) await settleSource(root, path, settled);
  }
  return settled;
}

async function settleSource(root: string, path: string, into: Settled): Promise<void> {
  const [base, ours, theirs] = [
    await stage(root, 1, path),
    await stage(root, 2, path),
    await stage(root, 3, path),
  ];
  if (ours === undefined || theirs === undefined || !existsSync(join(root, path))) {
    // Removed on one side, changed on the other: only a person decides (git add or git rm).
    into.left.push(path);
    return;
  }
  const settled = settleParts({ base: base ?? "", ours, theirs });
  if (!hasMarkers(await readFile(join(root, path), "utf8"))) {
    into.kept.push(path);
    return;
  }
  const text = await mergeRegions(settled.sides, mergeText);
  if (text === undefined || (settled.clashing.length > 0 && partsOwner(path) === undefined)) {
    into.left.push(path);
  } else if (settled.clashing.length > 0) into.clashing.push({ path, contents: text });
  else {
    into.writes.push({ path, contents: text });
    into.merged.push(path);
  }
}

/** Writes the derived files that differ from what the merged sources derive. */
async function rewriteStaleDerived(
  root: string,
  config: KitConfig,
): Promise<{ derived: FileWrite[]; stale: FileWrite[] }> {
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
  return { derived, stale };
}

/** Refuses a conflicted derived file that kit does not derive in this project. */
function checkDerived(conflicted: readonly string[], derived: readonly FileWrite[]): void {
  const missing = conflicted.filter(isDerived).filter((path) =>
    !derived.some((w) => w.path === path)
  );
  if (missing.length > 0) {
    throw new CliError(`resolve: kit derives no '${missing[0]}' here; merge it by hand`);
  }
}

/**
 * Moves on top each migration that shares its number with one that reached the trunk first (or
 * that `chosen` names),
 * migration list included, and answers what moved.
 */
async function renumberClashes(
  root: string,
  config: KitConfig,
  chosen: readonly string[],
): Promise<Renumbered[]> {
  let files = migrationFiles(root, config);
  const clashes = migrationClashes(files);
  for (const path of chosen) {
    if (!clashes.some((clash) => clash.paths.includes(path))) {
      // planRenumber names why: not a migration, or one whose number is its own.
      planRenumber(root, files, path);
    }
  }
  const moves: { path: string; keeps: string[] }[] = [];
  for (const clash of clashes) {
    const named = clash.paths.filter((path) => chosen.includes(path));
    const move = named.length > 0 ? named : await toRenumber(root, clash);
    if (move.length === clash.paths.length) {
      throw new CliError(
        `resolve --renumber: migration ${clash.version} must stay with one of ${
          clash.paths.join(", ")
        }: name all but the one that keeps it`,
      );
    }
    for (const path of move) {
      moves.push({ path, keeps: clash.paths.filter((p) => !move.includes(p)) });
    }
  }
  const overlay = new Map<string, string>();
  const plan = new Map<string, FileWrite>();
  const renumbered: Renumbered[] = [];
  for (const move of moves) {
    const step = planRenumber(root, files, move.path, overlay);
    files = step.files;
    for (const write of step.writes) {
      plan.set(write.path, write);
      if (!write.remove) overlay.set(write.path, write.contents);
    }
    const to = step.writes.find((w) => w.create)!.path;
    renumbered.push({ from: move.path, to, keeps: move.keeps });
  }
  await applyPlan(root, await formatPlan(root, [...plan.values()]));
  return renumbered;
}

/** The lines `kit resolve` prints. */
export function formatResolution(resolution: Resolution): string {
  const moved = resolution.renumbered.flatMap((r) => [r.from, r.to]);
  const all = [
    ...new Set([
      ...resolution.regenerated,
      ...resolution.merged,
      ...resolution.kept,
      ...resolution.rewritten,
      ...moved,
      ...(moved.length > 0 ? ["src/platform/database/migrations.ts"] : []),
    ]),
  ].sort();
  const clean = resolution.left.length === 0 && resolution.markers.length === 0;
  return [
    ...resolution.regenerated.map((path) => `regenerated ${path} (derived)`),
    ...resolution.merged.map((path) => `merged ${path} (kit regions: both sides' entries)`),
    ...resolution.rewritten.map((path) =>
      `rewrote ${path} (kit parts both sides changed: from the merged message and handler)`
    ),
    ...resolution.kept.map((path) => `kept ${path} (no conflict marker left: merged by hand)`),
    ...resolution.renumbered.map((r) =>
      `renumbered ${r.from} to ${basename(r.to)}, on top of the migration list (${
        r.keeps.join(" and ")
      } came first and keeps the number: it may have run on a shared database)`
    ),
    ...resolution.left.map((path) =>
      `left ${path}: conflicts outside kit's regions; merge it by hand, then run 'kit resolve' again`
    ),
    ...resolution.waiting.map((path) =>
      `waits ${path}: kit parts both sides changed; the next 'kit resolve' rewrites them from the merged sources once the files left are merged (leave its markers)`
    ),
    ...resolution.markers.map((at) =>
      `left ${at}: a conflict marker git no longer lists as a conflict; remove it by hand, then run 'kit resolve' again`
    ),
    ...(all.length === 0 && clean ? ["resolve: no conflicted file"] : []),
    ...(all.length > 0 && clean ? [`review and stage: git add ${all.join(" ")}`] : []),
  ].join("\n");
}

/** The side git keeps of a conflicted file (none: the file is not on that side). */
async function stage(root: string, number: 1 | 2 | 3, path: string): Promise<string | undefined> {
  const output = await new Deno.Command("git", {
    args: ["show", `:${number}:./${path}`],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  return output.code === 0 ? new TextDecoder().decode(output.stdout) : undefined;
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
