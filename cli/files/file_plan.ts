import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { CliError } from "../cli_error.ts";

/** One file a command writes: its path from the project root, and its whole contents. */
export interface FileWrite {
  /** The path, relative to the project root, with `/` separators. */
  readonly path: string;
  /** The new contents. */
  readonly contents: string;
  /** Refuse when the file exists already (a new file), instead of replacing it. */
  readonly create?: boolean;
  /** Remove the file instead of writing it (`contents` is ignored). */
  readonly remove?: boolean;
}

/** The file operations a plan is applied with (the file system's; a test may fail one). */
export interface PlanOperations {
  readonly rename: (from: string, to: string) => Promise<void>;
  readonly rm: (path: string) => Promise<void>;
}

const fileSystem: PlanOperations = {
  rename,
  rm: (path) => rm(path, { force: true, recursive: true }),
};

/**
 * Writes a plan all or nothing: every refusal is found before anything is written; each file is
 * written to a temporary sibling; then each file replaced or removed is moved aside and the new
 * ones renamed into place. If any step fails, what was done is undone (new files removed, the
 * files moved aside put back) and the error is thrown: the project is as it was. The files moved
 * aside are deleted once every step succeeded. A file whose bytes would not change is not
 * touched; the paths answered are those written or removed.
 */
export async function applyPlan(
  root: string,
  writes: readonly FileWrite[],
  operations: PlanOperations = fileSystem,
): Promise<readonly string[]> {
  checkPlan(root, writes);
  const changed = changedWrites(root, writes);
  const tag = crypto.randomUUID().slice(0, 8);
  const staged = await stageWrites(root, changed, tag, operations);
  const asideOf = (target: string) => `${target}.kit-${tag}.old`;
  await moveIntoPlace(staged, asideOf, operations);
  for (const { target } of staged) {
    if (existsSync(asideOf(target))) await operations.rm(asideOf(target));
  }
  return changed.map((w) => w.path).sort();
}

/** Refuses a path planned twice, outside the project, new but existing, or removed but missing. */
function checkPlan(root: string, writes: readonly FileWrite[]): void {
  const seen = new Set<string>();
  for (const write of writes) {
    if (seen.has(write.path)) throw new CliError(`internal: '${write.path}' is planned twice`);
    seen.add(write.path);
    const target = join(root, write.path);
    if (relative(root, target).startsWith("..")) {
      throw new CliError(`'${write.path}' is outside the project`);
    }
    if (write.create && existsSync(target)) throw new CliError(`'${write.path}' exists already`);
    if (write.remove && !existsSync(target)) throw new CliError(`'${write.path}' is missing`);
  }
}

/**
 * The writes that change a file. A file whose bytes would not change is left alone: not touched
 * (no watcher restarts for it), not reported as written.
 */
function changedWrites(root: string, writes: readonly FileWrite[]): FileWrite[] {
  return writes.filter((write) => {
    const target = join(root, write.path);
    return write.remove || !existsSync(target) || readFileSync(target, "utf8") !== write.contents;
  });
}

/** A file to replace or remove, and its new contents' temporary sibling when it is written. */
type Staged = { temporary?: string; target: string };

/** Writes each new contents to a temporary sibling; on a failure, removes those written. */
async function stageWrites(
  root: string,
  changed: readonly FileWrite[],
  tag: string,
  operations: PlanOperations,
): Promise<Staged[]> {
  const staged: Staged[] = [];
  try {
    for (const write of changed) {
      const target = join(root, write.path);
      if (write.remove) {
        staged.push({ target });
        continue;
      }
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.kit-${tag}.tmp`;
      await writeFile(temporary, write.contents);
      staged.push({ temporary, target });
    }
  } catch (error) {
    await Promise.all(
      staged.flatMap(({ temporary }) => temporary ? [operations.rm(temporary)] : []),
    );
    throw error;
  }
  return staged;
}

/**
 * Moves each file replaced or removed aside and each new one into place; on a failure, undoes
 * every step done, in reverse, and removes the temporary files.
 */
async function moveIntoPlace(
  staged: readonly Staged[],
  asideOf: (target: string) => string,
  operations: PlanOperations,
): Promise<void> {
  // Each step, with how to undo it, in the order done.
  const undo: (() => Promise<void>)[] = [];
  try {
    for (const { temporary, target } of staged) {
      if (existsSync(target)) {
        await operations.rename(target, asideOf(target));
        undo.push(() => operations.rename(asideOf(target), target));
      }
      if (temporary !== undefined) {
        await operations.rename(temporary, target);
        undo.push(() => operations.rm(target));
      }
    }
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => {});
    await Promise.all(
      staged.flatMap(({ temporary }) =>
        temporary ? [operations.rm(temporary).catch(() => {})] : []
      ),
    );
    throw error;
  }
}
