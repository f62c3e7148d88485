import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { CliError } from "../cli_error.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import type { KitConfig } from "../project/kit_config.ts";

/** The project's one ordered list of migrations (the generators write it). */
const listPath = "src/platform/database/migrations.ts";

const migrationName = /^(\d{4})-([a-z0-9-]+)\.ts$/;

/** A migration of a context: `src/contexts/<context>/infrastructure/migrations/NNNN-<name>.ts`. */
export interface MigrationFile {
  /** Its context. */
  readonly context: string;
  /** Its number, the `NNNN` of its name. */
  readonly version: number;
  /** Its path from the project root. */
  readonly path: string;
}

/** Two migrations or more under one number (two branches each took the next one). */
export interface MigrationClash {
  /** The number they share. */
  readonly version: number;
  /** Their paths, sorted. */
  readonly paths: readonly string[];
}

/** Every migration of the project's contexts, in path order. */
export function migrationFiles(root: string, config: KitConfig): MigrationFile[] {
  const out: MigrationFile[] = [];
  for (const { name: context } of config.contexts) {
    const dir = `src/contexts/${context}/infrastructure/migrations`;
    if (!existsSync(join(root, dir))) continue;
    for (const file of readdirSync(join(root, dir)).sort()) {
      const match = migrationName.exec(file);
      if (match !== null) out.push({ context, version: Number(match[1]), path: `${dir}/${file}` });
    }
  }
  return out;
}

/** The numbers more than one migration has, lowest first. */
export function migrationClashes(files: readonly MigrationFile[]): MigrationClash[] {
  const byVersion = new Map<number, string[]>();
  for (const file of files) {
    byVersion.set(file.version, [...byVersion.get(file.version) ?? [], file.path]);
  }
  return [...byVersion].filter(([, paths]) => paths.length > 1).sort(([a], [b]) => a - b)
    .map(([version, paths]) => ({ version, paths: paths.sort() }));
}

/**
 * The writes that move one migration to the top of the list (the highest number plus one): the
 * file renamed, its `version` and the number in its constant's name changed, and the project's
 * migration list (`src/platform/database/migrations.ts`, read from `overlay` first) importing
 * and listing it under its new name, in order. Only a migration that shares its number may move:
 * a migration that ran somewhere must keep its number, so a lone one is refused.
 *
 * @param root The project.
 * @param files The project's migrations, as {@linkcode migrationFiles} answers them.
 * @param path The migration to move.
 * @param overlay Planned contents to read before the disk's.
 * @returns The writes, and the migrations as they are once the writes are applied.
 */
export function planRenumber(
  root: string,
  files: readonly MigrationFile[],
  path: string,
  overlay: ReadonlyMap<string, string> = new Map(),
): { writes: FileWrite[]; files: MigrationFile[] } {
  const own = sharedMigration(files, path);
  const version = Math.max(...files.map((f) => f.version)) + 1;
  const oldDigits = String(own.version).padStart(4, "0");
  const newDigits = String(version).padStart(4, "0");
  const moved: MigrationFile = {
    ...own,
    version,
    path: own.path.replace(/\/\d{4}-([^/]+)$/, `/${newDigits}-$1`),
  };
  const read = (p: string) => overlay.get(p) ?? readFileSync(join(root, p), "utf8");
  const text = read(own.path);
  const rename = constantRenamer(text, oldDigits, newDigits);
  const writes: FileWrite[] = [
    { path: own.path, contents: "", remove: true },
    {
      path: moved.path,
      create: true,
      contents: rename(text).replace(/\bversion:\s*\d+/, `version: ${version}`),
    },
  ];
  if (overlay.has(listPath) || existsSync(join(root, listPath))) {
    writes.push({ path: listPath, contents: movedInList(read(listPath), rename, own, moved) });
  }
  return { writes, files: files.map((f) => f === own ? moved : f) };
}

/** The migration at `path`, refused unless it is one that shares its number with another. */
function sharedMigration(files: readonly MigrationFile[], path: string): MigrationFile {
  const own = files.find((f) => f.path === path);
  if (own === undefined) {
    throw new CliError(
      `resolve --renumber: '${path}' is no migration of a context (src/contexts/<context>/infrastructure/migrations/NNNN-<name>.ts)`,
    );
  }
  if (!files.some((f) => f !== own && f.version === own.version)) {
    throw new CliError(
      `resolve --renumber: no other migration has number ${own.version} of '${path}': a migration keeps its number once it exists (it may have run)`,
    );
  }
  return own;
}

/**
 * Renames, in a text, the migration's constant (`m0002SchedulingX` -> `m0003SchedulingX`) when
 * its name carries the old number; leaves the text as it is otherwise.
 */
function constantRenamer(
  text: string,
  oldDigits: string,
  newDigits: string,
): (t: string) => string {
  const constant = /export const (\w+)\s*:/.exec(text)?.[1];
  const renamed = constant?.startsWith(`m${oldDigits}`)
    ? `m${newDigits}${constant.slice(1 + oldDigits.length)}`
    : constant;
  return (t: string) =>
    constant === undefined || renamed === constant
      ? t
      : t.replace(new RegExp(`\\b${constant}\\b`, "g"), renamed!);
}

/** The migration list importing and listing the moved migration under its new name, in order. */
function movedInList(
  text: string,
  rename: (t: string) => string,
  own: MigrationFile,
  moved: MigrationFile,
): string {
  let list = rename(text).replaceAll(
    `/${basename(own.path, ".ts")}.ts"`,
    `/${basename(moved.path, ".ts")}.ts"`,
  );
  for (const region of ["migration-imports", "migrations"]) {
    if (list.includes(`// kit:begin ${region}`)) {
      list = updateRegion(list, region, readRegion(list, region, listPath), listPath);
    }
  }
  return list;
}

/**
 * The line `kit docs --check` prints for a clash: both files, and the command that moves the one
 * to move (`renumber`, the one merged last: it has run on no database the trunk migrated).
 */
export function clashLine(clash: MigrationClash, renumber: string): string {
  const keep = clash.paths.filter((p) => p !== renumber);
  return `error migrations/numbers-unique: migration ${
    String(clash.version).padStart(4, "0")
  } is both ${
    keep.join(" and ")
  } and ${renumber}; keep the number of the one that may have run (on the trunk first) and move the other on top: kit resolve --renumber ${renumber}`;
}

/**
 * Of migrations sharing a number, those to move on top: all but the one that reached the trunk
 * first. The trunk's migration may have run on a shared database (staging, production), the other
 * only on its worker's. First, a migration already on the trunk (`origin/HEAD`, `main` or `master`,
 * whichever exist) keeps it over one that is not: so a branch that merges the trunk in moves its
 * own. Then the first to come into `HEAD`'s first-parent line (the checked-out branch's own
 * history: a merged branch's file counts from its merge; a migration of the merge or rebase in
 * progress, not in `HEAD` yet, comes last). Without git, or on a tie, the first in path order.
 */
export async function toRenumber(root: string, clash: MigrationClash): Promise<string[]> {
  const trunks = (await git(root, [
    "for-each-ref",
    "--format=%(refname)",
    "refs/remotes/origin/HEAD",
    "refs/heads/main",
    "refs/heads/master",
  ])).split("\n").filter((ref) => ref !== "");
  const ranked = await Promise.all(clash.paths.map(async (path) => ({
    path,
    onTrunk: await onAnyTrunk(root, trunks, path),
    at: await arrival(root, path),
  })));
  const keeper =
    ranked.sort((a, b) =>
      Number(b.onTrunk) - Number(a.onTrunk) || a.at - b.at || a.path.localeCompare(b.path)
    )[0]!.path;
  return clash.paths.filter((path) => path !== keeper);
}

async function onAnyTrunk(root: string, trunks: readonly string[], path: string): Promise<boolean> {
  for (const trunk of trunks) {
    if ((await git(root, ["ls-tree", "--name-only", trunk, "--", path])) !== "") return true;
  }
  return false;
}

/** How many commits `HEAD`'s first-parent line had when `path` came into it (none: Infinity). */
async function arrival(root: string, path: string): Promise<number> {
  const added = (await git(root, [
    "log",
    "--first-parent",
    "--diff-filter=A",
    "--format=%H",
    "HEAD",
    "--",
    path,
  ])).split("\n").find((line) => line !== "");
  if (added === undefined) return Infinity;
  const count = Number(await git(root, ["rev-list", "--first-parent", "--count", added]));
  return Number.isFinite(count) && count > 0 ? count : Infinity;
}

async function git(root: string, args: string[]): Promise<string> {
  try {
    const output = await new Deno.Command("git", {
      args,
      cwd: root,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return output.code === 0 ? new TextDecoder().decode(output.stdout).trim() : "";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return ""; // no git: path order decides
    throw error;
  }
}
