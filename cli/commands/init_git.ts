/**
 * The git repository `kit init` makes for a new project: `git init`, every file added, one commit
 * "kit init". Nothing here fails the init: a missing git, an identity git does not know, or a
 * directory already in a repository end in an outcome that says what happened.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { generatorTemplate } from "../templates/project_template.ts";

/**
 * What became of the new project's repository: `committed` (a new repository, every file in its
 * first commit), `no-identity` (a new repository, every file staged, no commit: git has no
 * user.name or user.email), `commit-failed` (the same, git refused the commit for another
 * reason, given in `detail`), `inside-repository` (the directory is in the work tree of
 * `detail`: no nested repository), `no-git` (git is not installed) or `init-failed` (`git init`
 * refused, `detail` saying why).
 */
export interface GitSetup {
  /** What happened. */
  readonly outcome:
    | "committed"
    | "no-identity"
    | "commit-failed"
    | "inside-repository"
    | "no-git"
    | "init-failed";
  /** The enclosing work tree (`inside-repository`) or git's first line of error. */
  readonly detail?: string;
}

/** The message of the first commit. */
export const initCommitMessage = "kit init";

/**
 * Makes `dir` a git repository whose first commit holds every file not ignored, with the
 * {@linkcode preCommitHook} installed. Reads git's
 * configuration and the environment (`HOME`, `GIT_AUTHOR_NAME`...) as git does.
 *
 * @param dir The new project.
 * @returns What became of the repository.
 */
export async function initGitRepository(dir: string): Promise<GitSetup> {
  const inside = await git(dir, ["rev-parse", "--show-toplevel"]);
  if (inside === undefined) return { outcome: "no-git" };
  if (inside.ok) return { outcome: "inside-repository", detail: inside.stdout.trim() };
  for (const args of [["init", "-q"], ["add", "-A"]]) {
    const step = await git(dir, args);
    if (!step?.ok) return { outcome: "init-failed", detail: firstLine(step?.stderr) };
  }
  await installPreCommitHook(dir);
  for (const ident of ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"]) {
    if (!(await git(dir, ["var", ident]))?.ok) return { outcome: "no-identity" };
  }
  const commit = await git(dir, ["commit", "-q", "-m", initCommitMessage]);
  return commit?.ok
    ? { outcome: "committed" }
    : { outcome: "commit-failed", detail: firstLine(commit?.stderr) };
}

/**
 * The line `kit init` prints about the repository (none after `--no-git`) and the command left to
 * run in the project for a first commit (none when there is nothing to do).
 *
 * @param setup What {@linkcode initGitRepository} answered, or none for `--no-git`.
 * @returns The note and the next command.
 */
export function describeGitSetup(
  setup: GitSetup | undefined,
): { readonly note?: string; readonly next?: string } {
  const commit = `git commit -m "${initCommitMessage}"`;
  const needsCommit = "(kit worker-scope needs a commit)";
  const fresh = `git init && git add -A && ${commit}   ${needsCommit}`;
  switch (setup?.outcome) {
    case undefined:
      return { next: fresh };
    case "committed":
      return {
        note: `git: a new repository, every file in its first commit "${initCommitMessage}"`,
      };
    case "no-identity":
      return {
        note:
          "git: repository made, every file staged, no commit: git has no user.name and user.email",
        next:
          `git config user.name "Your Name" && git config user.email you@example.com && ${commit}`,
      };
    case "commit-failed":
      return {
        note: `git: repository made, every file staged, the commit refused: ${setup.detail}`,
        next: `${commit}   ${needsCommit}`,
      };
    case "inside-repository":
      return {
        note:
          `git: already in the repository at ${setup.detail}: no new repository made, nothing committed`,
      };
    case "no-git":
      return { note: "git: not installed, no repository made", next: fresh };
    case "init-failed":
      return { note: `git: no repository made: ${setup.detail}`, next: fresh };
  }
}

/**
 * The pre-commit hook `kit init` installs: it refuses a commit whose staged files hold a line git
 * writes at a conflict (`<<<<<<< ` or `>>>>>>> `), naming each, so a `git add -A` in the middle
 * of a merge commits no half-merged file. Plain `sh` and git, no kit: it runs wherever the
 * repository is cloned to, once copied into `.git/hooks/` (worktrees share it).
 */
export const preCommitHook: string = generatorTemplate("init/pre-commit.sh");

/** Writes the pre-commit hook into the repository's hooks folder, unless one is there already. */
async function installPreCommitHook(dir: string): Promise<void> {
  const hooks = (await git(dir, ["rev-parse", "--git-path", "hooks"]))?.stdout.trim();
  if (hooks === undefined || hooks === "") return;
  const path = isAbsolute(hooks) ? join(hooks, "pre-commit") : join(dir, hooks, "pre-commit");
  if (existsSync(path)) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, preCommitHook, { mode: 0o755 });
}

function firstLine(text: string | undefined): string {
  return text?.split("\n").find((line) => line.trim() !== "")?.trim() ?? "git failed";
}

async function git(
  cwd: string,
  args: readonly string[],
): Promise<{ ok: boolean; stdout: string; stderr: string } | undefined> {
  try {
    const output = await new Deno.Command("git", {
      args: [...args],
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { ok: output.code === 0, stdout: decode(output.stdout), stderr: decode(output.stderr) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
