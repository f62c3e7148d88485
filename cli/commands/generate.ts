import { existsSync } from "node:fs";
import {
  cachedCurrent,
  derivationInputs,
  derivationInputsAfter,
  isDerivedOutput,
  readDerivedCache,
  recordDerivation,
} from "../derive/derived_cache.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { type GeneratorKind, generatorKinds, namesFile } from "../generators/catalog.ts";
import { planners } from "../generators/planners.ts";
import { findProjectRoot, readConfig } from "../project/kit_config.ts";

/** What `kit generate` is told. */
export interface GenerateInput {
  readonly kind: string;
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
}

/**
 * Runs a generator in the project around `cwd`: plans every file, refuses (writing nothing) on
 * any bad input or, with `--local-only`, when the formatted plan changes a file outside
 * `src/contexts/<context>/` (every file, for `worker`, which names no context) or the kind is one
 * that always does; then writes all.
 */
export async function generate(cwd: string, input: GenerateInput): Promise<readonly string[]> {
  const kind = checkedKind(input);
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  const plan = await planners[kind.kind]!({
    root,
    config,
    names: input.positionals,
    options: input.options,
  });
  const formatted = await formatPlan(root, plan);
  if (input.options["local-only"] === true) {
    // One rule for every kind: the files outside the context this plan really changes.
    const shared = await changedOutside(
      root,
      contextPrefix(kind.kind, input.positionals[0]),
      formatted,
    );
    if (shared.length > 0) refuseShared(kind.kind, inCatalogOrder(kind, shared));
    if (kind.writesShared) refuseShared(kind.kind, kind.sharedFiles);
  }
  return await writeAndRecord(root, config.contexts.map((c) => c.name), formatted);
}

/** The kind named, given at least the positional arguments its usage names; else a CliError. */
function checkedKind(input: GenerateInput): GeneratorKind {
  const kind = generatorKinds.find((k) => k.kind === input.kind);
  if (kind === undefined) {
    throw new CliError(
      `Unknown kind '${input.kind}': use one of ${generatorKinds.map((k) => k.kind).join(", ")}`,
    );
  }
  // The positional arguments the kind's usage names (`<context> <Name>`), before any option.
  const parts = kind.usage.split(" ");
  const first = parts.findIndex((part) => !part.startsWith("<"));
  const wanted = first === -1 ? parts.filter((part) => part !== "") : parts.slice(0, first);
  if (input.positionals.length < wanted.length) {
    throw new CliError(`Usage: kit generate ${kind.kind} ${kind.usage}`.trimEnd());
  }
  return kind;
}

/**
 * Writes the plan, and records its derived files in the cache when every context was derived or
 * the cache found the others current before: a generator derives only the contexts it writes in.
 */
async function writeAndRecord(
  root: string,
  contexts: readonly string[],
  formatted: readonly FileWrite[],
): Promise<readonly string[]> {
  const before = await derivationInputs(root);
  const previous = readDerivedCache(root);
  const wasCurrent = await cachedCurrent(root, before, contexts, previous);
  const written = await applyPlan(root, formatted);
  const derived = new Map(
    formatted.filter((w) => isDerivedOutput(w.path)).map((w) => [w.path, w.contents]),
  );
  const derivedAll = contexts.every((c) =>
    !existsSync(join(root, "src/contexts", c)) ||
    derived.has(`src/contexts/${c}/${c}.declarations.ts`)
  );
  if (derivedAll || wasCurrent) {
    // A `docs --check` next finds every derived file current from the cache, deriving nothing.
    await recordDerivation(
      root,
      await derivationInputsAfter(root, before, formatted.map((w) => w.path)),
      derived,
      derivedAll ? {} : previous!.outputs,
    );
  }
  return written;
}

/** Where a kind's own files are: `src/contexts/<context>/` (none for `worker`: every file is shared). */
function contextPrefix(kind: string, first: string | undefined): string | undefined {
  return kind === "worker" || first === undefined ? undefined : `src/contexts/${first}/`;
}

/** The files in the order `--help --json` lists them (any it does not name last). */
function inCatalogOrder(kind: GeneratorKind, files: readonly string[]): string[] {
  const rank = (path: string) => {
    const index = kind.sharedFiles.findIndex((pattern) => namesFile(pattern, path));
    return index === -1 ? kind.sharedFiles.length : index;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

function refuseShared(kind: string, files: readonly string[]): never {
  throw new CliError(
    `kit generate ${kind} would write ${files.length} shared file(s): ${files.join(", ")}; ` +
      `nothing was written (run it on the trunk, without --local-only)`,
  );
}

/** The planned files outside `prefix` (all, without one) whose contents the plan changes, in plan order. */
async function changedOutside(
  root: string,
  prefix: string | undefined,
  plan: readonly FileWrite[],
): Promise<string[]> {
  const changed: string[] = [];
  for (const write of plan) {
    if (prefix !== undefined && write.path.startsWith(prefix)) continue;
    const path = join(root, write.path);
    const current = existsSync(path) ? await readFile(path, "utf8") : undefined;
    if (write.remove ? current !== undefined : current !== write.contents) changed.push(write.path);
  }
  return changed;
}
