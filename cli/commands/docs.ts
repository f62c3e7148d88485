import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import {
  cachedCurrent,
  currentContexts,
  derivationInputs,
  isDerivedOutput,
  readDerivedCache,
  recordDerivation,
} from "../derive/derived_cache.ts";
import { conflictMarkers, markerLine } from "../derive/conflict_markers.ts";
import {
  clashLine,
  migrationClashes,
  migrationFiles,
  toRenumber,
} from "../derive/migration_numbers.ts";
import { depcruiseConfigWrite } from "./depcruise_config.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { findProjectRoot, type KitConfig, pascalOf, readConfig } from "../project/kit_config.ts";
import { tablesKeyedById } from "../derive/tenant_keys.ts";

/**
 * Plans every derived file of the contexts in `only` (all when it is not given), reading planned writes
 * from `overlay` before the disk: barrels, dependency manifests, CONTEXT.md lists, context map,
 * and the renames that give each decision record of a context a number of its own.
 * In a worker's worktree (`.kit/worker.json`), the context map, a document every context shares,
 * is left to the conductor's `kit docs` after the merge: a worker's plan stays in its context.
 */
export async function planDerived(
  root: string,
  config: KitConfig,
  overlay: ReadonlyMap<string, string> = new Map(),
  only?: ReadonlySet<string>,
): Promise<FileWrite[]> {
  // Loaded here, not at start: they bring the parser, which a cached `docs --check` never needs.
  const [{ contextMap }, { deriveConsumption }, { deriveContext }, { planDecisionNumbers }] =
    await Promise.all([
      import("../derive/context_map.ts"),
      import("../derive/consumption.ts"),
      import("../derive/derive_context.ts"),
      import("../derive/adr_numbers.ts"),
    ]);
  const writes: FileWrite[] = existsSync(join(root, ".kit/worker.json")) ? [] : [{
    path: "docs/context-map.md",
    contents: contextMap(config, deriveConsumption(root, config, overlay)),
  }];
  for (const context of [...config.contexts].sort((a, b) => a.name.localeCompare(b.name))) {
    if (only !== undefined && !only.has(context.name)) continue;
    const base = `src/contexts/${context.name}`;
    if (
      !existsSync(join(root, base)) && ![...overlay.keys()].some((p) => p.startsWith(base + "/"))
    ) continue;
    const derived = await deriveContext(root, context.name, overlay);
    writes.push(
      { path: `${base}/${context.name}.declarations.ts`, contents: derived.declarations },
      { path: `${base}/${context.name}.dependencies.ts`, contents: derived.dependencies },
    );
    const contextPath = `${base}/CONTEXT.md`;
    const current = overlay.get(contextPath) ??
      (existsSync(join(root, contextPath))
        ? readFileSync(join(root, contextPath), "utf8")
        : undefined);
    if (current !== undefined) {
      writes.push({
        path: contextPath,
        contents: replaceMarkdownRegion(current, derived.contextList, contextPath),
      });
    }
  }
  writes.push(...planDecisionNumbers(root, config));
  return writes;
}

/**
 * `kit docs`: writes the derived files; with `check`, answers the stale ones and writes nothing.
 * Either way it fails, naming each, on what a merge left that no derivation settles: a file
 * holding a conflict marker (nothing derived or written then: the sources are not code yet; a
 * derived file holding one is only stale to `kit docs`, which writes it again) and
 * two migrations under one number (with the command that moves the one merged last on top).
 * With `check`, it fails too on a table a repository generated before ids per tenant keyed by id
 * alone (one tenant's id blocks, and reveals, another's), naming the command that writes the
 * migration re-keying it.
 */
export async function docs(
  cwd: string,
  options: { check?: boolean } = {},
): Promise<readonly string[]> {
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  // Not derived, so not in the cache: searched on every run (a few milliseconds). A derived file
  // holding markers is no obstacle to writing it again.
  const markers = conflictMarkers(root).filter((at) =>
    options.check || !isDerivedOutput(at.replace(/:\d+$/, ""))
  );
  if (markers.length > 0) {
    throw new CliError(
      [
        `docs${options.check ? " --check" : ""}: ${markers.length} file(s) hold conflict markers`,
        ...markers.map(markerLine),
      ].join("\n"),
    );
  }
  const clashes = await clashLines(root, config);
  const written = await derive(root, config, options, clashes);
  if (clashes.length > 0) {
    throw new CliError(
      [
        `docs${options.check ? " --check" : ""}: ${clashes.length} migration number(s) taken twice${
          written.length > 0 ? ` (wrote ${written.join(", ")})` : ""
        }`,
        ...clashes,
      ].join("\n"),
    );
  }
  const keyed = options.check ? tablesKeyedById(root, config) : [];
  if (keyed.length > 0) {
    throw new CliError(
      [
        `docs --check: ${keyed.length} table(s) keyed by id alone`,
        ...keyed.map((found) =>
          `error tables/ids-per-tenant: ${found.schema}.${found.table} (${found.path}) is keyed by id alone, as repositories were generated before ids per tenant: one tenant's id blocks another's and reveals that it exists; kit generate rekey ${found.context} ${
            pascalOf(found.table.replace(/s$/, "").replaceAll("_", "-"))
          } writes the migration that re-keys it, and its PostgreSQL adapter changes in the same deploy (docs/operations/ids-per-tenant.md)`
        ),
      ].join("\n"),
    );
  }
  return written;
}

/** One line for each number two migrations share, naming the one to move. */
async function clashLines(root: string, config: KitConfig): Promise<string[]> {
  const lines: string[] = [];
  for (const clash of migrationClashes(migrationFiles(root, config))) {
    for (const path of await toRenumber(root, clash)) lines.push(clashLine(clash, path));
  }
  return lines;
}

async function derive(
  root: string,
  config: KitConfig,
  options: { check?: boolean },
  clashes: readonly string[],
): Promise<readonly string[]> {
  // Nothing changed since the last derivation found every file current: no parse, no format.
  const inputs = await derivationInputs(root);
  const cache = readDerivedCache(root);
  if (await cachedCurrent(root, inputs, config.contexts.map((c) => c.name), cache)) return [];
  // The contexts the cache vouches for are not derived again: only those whose sources (or
  // derived files) changed since, and the context map.
  const current = await currentContexts(root, inputs, cache);
  const only = new Set(config.contexts.map((c) => c.name).filter((c) => !current.has(c)));
  const kept = Object.fromEntries(
    Object.entries(cache?.outputs ?? {}).filter(([path]) =>
      [...current].some((c) => path.startsWith(`src/contexts/${c}/`))
    ),
  );
  const writes = await formatPlan(root, await planDerived(root, config, new Map(), only));
  const stale: string[] = [];
  for (const write of writes) {
    const path = join(root, write.path);
    const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    if (current !== write.contents) stale.push(write.path);
  }
  if (options.check) {
    if (stale.length > 0 || clashes.length > 0) {
      const missing = new Set(stale.filter((path) => !existsSync(join(root, path))));
      throw new CliError(
        [
          `docs --check: ${
            [
              ...(stale.length > 0 ? [`${stale.length} derived file(s) stale`] : []),
              ...(clashes.length > 0 ? [`${clashes.length} migration number(s) taken twice`] : []),
            ].join(", ")
          }`,
          ...stale.sort().map((path) => staleLine(path, missing.has(path))),
          ...clashes,
        ].join("\n"),
      );
    }
    await recordDerivation(root, inputs, planned(writes), kept);
    return [];
  }
  const written = await applyPlan(root, writes.filter((w) => stale.includes(w.path)));
  // A renumbered decision is an input too: the digest is taken again after the writes.
  await recordDerivation(root, await derivationInputs(root), planned(writes), kept);
  return written;
}

/** Each derived path and what it holds once the plan is applied (a removed file: undefined). */
function planned(writes: readonly FileWrite[]): Map<string, string | undefined> {
  return new Map(writes.map((w) => [w.path, w.remove ? undefined : w.contents]));
}

/**
 * The line `docs --check` prints for a stale derived file, naming its rule: a barrel
 * (`<context>.declarations.ts`) breaks `declarations/barrel-current`, any other derived file
 * `derived-files-current`.
 */
export function staleLine(path: string, missing = false): string {
  const context = /^src\/contexts\/([^/]+)\/(.+)$/.exec(path);
  if (context?.[2]?.startsWith("docs/adr/")) {
    return missing
      ? `error adr/numbers-unique: ${path}, a decision of ${
        context[1]
      } renumbered, is missing (run 'kit docs')`
      : `error adr/numbers-unique: ${path} shares its number with another decision of ${
        context[1]
      } (run 'kit docs' to renumber it)`;
  }
  const [name, file] = context === null ? [undefined, path] : [context[1]!, context[2]!];
  const rule = file === `${name}.declarations.ts`
    ? "declarations/barrel-current"
    : "derived-files-current";
  const what = path === "docs/context-map.md"
    ? `the context map (${path})`
    : file === "CONTEXT.md"
    ? `CONTEXT.md of ${name}`
    : file === `${name}.declarations.ts`
    ? `the barrel of ${name} (${path})`
    : file === `${name}.dependencies.ts`
    ? `the dependency manifest of ${name} (${path})`
    : path;
  return `error ${rule}: ${what} is ${missing ? "missing" : "stale"} (run 'kit docs')`;
}

function replaceMarkdownRegion(text: string, body: string, file: string): string {
  const begin = text.indexOf("<!-- kit:begin generated -->");
  const end = text.indexOf("<!-- kit:end -->", begin);
  if (begin === -1 || end === -1) {
    throw new CliError(`'${file}' has no '<!-- kit:begin generated -->' region`);
  }
  return text.slice(0, begin) + "<!-- kit:begin generated -->\n" + body + "\n" + text.slice(end);
}

/**
 * A plan completed with the derived files its writes change (planned writes read first): those
 * of the contexts it writes in (the others' sources are unchanged, so are their derived files),
 * the context map and the decision numbers; a plan that writes `kit.config.json` derives every
 * context, and also rewrites `.dependency-cruiser.cjs`.
 */
export async function withDerived(
  root: string,
  config: KitConfig,
  writes: readonly FileWrite[],
): Promise<FileWrite[]> {
  const overlay = new Map(writes.map((w) => [w.path, w.contents]));
  const touched = overlay.has("kit.config.json") ? undefined : new Set(
    writes.map((w) => /^src\/contexts\/([^/]+)\//.exec(w.path)?.[1]).filter((c): c is string =>
      c !== undefined
    ),
  );
  const derived = await planDerived(root, config, overlay, touched);
  if (overlay.has("kit.config.json")) derived.push(depcruiseConfigWrite(config));
  const derivedPaths = new Set(derived.map((w) => w.path));
  return [...writes.filter((w) => !derivedPaths.has(w.path)), ...derived];
}
