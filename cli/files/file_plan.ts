import { existsSync } from "node:fs";
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

/**
 * Writes a plan all or nothing: every refusal is found before anything is written; each file is
 * written to a temporary sibling, then all are renamed into place.
 */
export async function applyPlan(
  root: string,
  writes: readonly FileWrite[],
): Promise<readonly string[]> {
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
  const staged: [string, string][] = [];
  try {
    for (const write of writes.filter((w) => !w.remove)) {
      const target = join(root, write.path);
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.kit-${crypto.randomUUID().slice(0, 8)}.tmp`;
      await writeFile(temporary, write.contents);
      staged.push([temporary, target]);
    }
  } catch (error) {
    await Promise.all(staged.map(([temporary]) => rm(temporary, { force: true })));
    throw error;
  }
  for (const [temporary, target] of staged) await rename(temporary, target);
  for (const write of writes.filter((w) => w.remove)) await rm(join(root, write.path));
  return writes.map((w) => w.path).sort();
}
