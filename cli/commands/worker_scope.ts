import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { CliError } from "../cli_error.ts";
import { consumedContracts } from "../derive/consumed_contracts.ts";
import { applyPlan } from "../files/file_plan.ts";
import { generatorKinds } from "../generators/catalog.ts";
import { checkContext } from "../generators/generate_simple.ts";
import { findProjectRoot, readConfig } from "../project/kit_config.ts";
import { readSlicePlan, type SliceRow } from "../project/slice_plan.ts";

/** What a worker is told about its scope. */
export interface Briefing {
  readonly context: string;
  readonly worktree: string;
  readonly branch: string;
  readonly writable: readonly string[];
  readonly allowedGenerators: readonly string[];
  readonly slices: readonly SliceRow[];
  readonly consumedContracts: readonly string[];
}

/**
 * Prepares a worker's scope: a git worktree on `build/<context>` (kept when it exists), with
 * `.kit/worker.json` written in it, and answers the briefing. With `dryRun`, changes nothing.
 */
export async function workerScope(
  cwd: string,
  context: string,
  options: { worktree?: string; branch?: string; dryRun?: boolean },
): Promise<Briefing> {
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  checkContext(config, context);
  const head = await git(root, ["rev-parse", "--verify", "HEAD"]);
  if (!head.ok) {
    throw new CliError("kit worker-scope needs a git repository with at least one commit");
  }
  const worktree = resolve(options.worktree ?? join(dirname(root), `${basename(root)}-${context}`));
  const branch = options.branch ?? `build/${context}`;
  const briefing: Briefing = {
    context,
    worktree,
    branch,
    writable: [`src/contexts/${context}/**`, `test/e2e/${context}/**`],
    allowedGenerators: allowedGenerators(),
    slices: (await readSlicePlan(root)).filter((row) => row.context === context),
    consumedContracts: consumedContracts(root, config, context, await readSlicePlan(root)),
  };
  if (options.dryRun) return briefing;
  if (!existsSync(worktree)) {
    const branchExists = (await git(root, ["rev-parse", "--verify", `refs/heads/${branch}`])).ok;
    const add = branchExists
      ? await git(root, ["worktree", "add", worktree, branch])
      : await git(root, ["worktree", "add", "-b", branch, worktree]);
    if (!add.ok) throw new CliError(`git worktree add failed: ${add.stderr.trim().split("\n")[0]}`);
  }
  await applyPlan(worktree, [{
    path: ".kit/worker.json",
    contents: JSON.stringify({ context }, null, 2) + "\n",
  }]);
  return briefing;
}

/**
 * The kinds a worker may run with `--local-only`: those that do not always write outside their
 * context (`--local-only` still refuses a run whose plan does, as `route-group --role` with a new
 * role).
 */
export function allowedGenerators(): string[] {
  return generatorKinds.filter((k) => !k.writesShared).map((k) => k.kind);
}

/**
 * The cases in which `--local-only` refuses a kind, one per option (`with --aggregate when the
 * aggregate has no repository yet or ...`): its writes outside the context, but those a worker's
 * tree never makes (the conductor's documents).
 */
function refusedCases(kind: string): string[] {
  const writes = (generatorKinds.find((k) => k.kind === kind)?.sharedWrites ?? [])
    .filter((w) => w.outsideWorktree !== true);
  return [...new Set(writes.map((w) => w.option))].map((option) => {
    const whens = [
      ...new Set(
        writes.filter((w) => w.option === option && w.when !== undefined)
          .map((w) => w.when!),
      ),
    ];
    return [
      ...(option === undefined ? [] : [`with ${option}`]),
      ...(whens.length === 0 ? [] : [`when ${whens.join(" or ")}`]),
    ].join(" ");
  });
}

/** The briefing as text for a person or an agent. */
export function formatBriefing(briefing: Briefing): string {
  const free = briefing.allowedGenerators.filter((kind) => refusedCases(kind).length === 0);
  const bounded = briefing.allowedGenerators.filter((kind) => refusedCases(kind).length > 0);
  return [
    `Worker scope: ${briefing.context}`,
    `Working directory: ${briefing.worktree} (branch ${briefing.branch})`,
    `Writable: ${briefing.writable.join(", ")}`,
    "Allowed generators, each run with --local-only (it refuses a run that would write a shared file):",
    `  ${free.join(", ")}`,
    ...bounded.flatMap((kind) => refusedCases(kind).map((c) => `  ${kind}: refused ${c}`)),
    "Your slices:",
    ...(briefing.slices.length === 0
      ? ["  (none)"]
      : briefing.slices.map((s) =>
        `  #${s.number} [${s.status}] ${s.kind}: ${s.slice}${
          s.startWith.trim() === "" ? "" : ` (start with ${s.startWith})`
        }${s.dependsOn.trim() === "" ? "" : ` (after #${s.dependsOn.split(/,\s*/).join(", #")})`}`
      )),
    "Consumed contracts:",
    ...(briefing.consumedContracts.length === 0
      ? ["  (none)"]
      : briefing.consumedContracts.map((c) => `  ${c}`)),
  ].join("\n");
}

async function git(cwd: string, args: string[]): Promise<{ ok: boolean; stderr: string }> {
  const output = await new Deno.Command("git", { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  return { ok: output.code === 0, stderr: new TextDecoder().decode(output.stderr) };
}
