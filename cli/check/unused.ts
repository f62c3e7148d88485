import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, normalize, relative } from "node:path";
import { CliError } from "../cli_error.ts";
import { findProjectRoot } from "../project/kit_config.ts";
import { globToRegExp } from "./glob.ts";
import { type ModuleExport, type ModuleLinks, moduleLinks } from "./module_links.ts";

/** The folders whose TypeScript files belong to the project. */
export const projectFolders: readonly string[] = ["src", "test", "apps", "scripts"];

/**
 * The entry points every project has: the server, the services (and their Node entry points),
 * every spec and test.
 */
export const defaultEntries: readonly string[] = [
  "src/main.ts",
  "apps/*/main.ts",
  "apps/*/main.node.ts",
  "**/*.spec.ts",
  "**/*_test.ts",
  "**/*.test.ts",
];

/** The part of `knip.json` that `kit check unused` reads (the rest is ignored). */
export interface UnusedSettings {
  /** More entry points (globs). */
  readonly entry?: readonly string[];
  /** Files never reported, nor their exports (globs). */
  readonly ignore?: readonly string[];
  /** Import-map entries never reported. */
  readonly ignoreDependencies?: readonly string[];
  /**
   * Exports the file itself uses are not reported: all of them (`true`), or those of the kinds
   * set to `true` (`{ "interface": true, "type": true }`).
   */
  readonly ignoreExportsUsedInFile?:
    | boolean
    | Readonly<Partial<Record<ModuleExport["kind"], boolean>>>;
}

/** What `kit check unused` finds, each list sorted. */
export interface UnusedReport {
  /** Files under the project folders that no entry point reaches. */
  readonly files: readonly string[];
  /** Exports of reached files (entry points aside) that no other file imports. */
  readonly exports: readonly {
    readonly path: string;
    readonly line: number;
    readonly name: string;
  }[];
  /** Entries of `deno.json`'s import map that no reached file imports. */
  readonly dependencies: readonly string[];
}

/**
 * `kit check unused`, the check knip makes on a Node project, for a Deno project (knip needs a
 * `package.json` and reads no import map): from the entry points (`src/main.ts`,
 * `apps/*\/main.ts` and `apps/*\/main.node.ts`, specs and tests, the `.ts` files named by `deno.json` tasks, and `entry` of
 * `knip.json`), follows relative imports, and reports unreached files, exports nobody imports (but
 * those tagged `@public`, as knip does) and import-map entries nobody imports.
 *
 * @param cwd A folder inside the project.
 * @returns What is unused (every list empty when the project is clean).
 */
export async function findUnused(cwd: string): Promise<UnusedReport> {
  const root = findProjectRoot(cwd);
  const settings = await readSettings(root);
  const denoJson = await readJson(join(root, "deno.json")) as DenoJson;
  const graph = await readGraph(root);
  const taskScripts = taskScriptsOf(denoJson);
  const entryPatterns = [...defaultEntries, ...(settings.entry ?? [])].map(globToRegExp);
  const ignored = (settings.ignore ?? []).map(globToRegExp);
  const isEntry = (path: string) =>
    taskScripts.includes(path) || entryPatterns.some((re) => re.test(path));
  const isIgnored = (path: string) => ignored.some((re) => re.test(path));
  const reached = reachedFrom(graph, graph.files.filter(isEntry));
  const { used, bare } = importsOf(graph, reached);
  return {
    files: graph.files.filter((path) => !reached.has(path) && !isIgnored(path)),
    exports: unusedExports(
      graph,
      reached,
      used,
      settings,
      (path) => isEntry(path) || isIgnored(path),
    ),
    dependencies: unusedDependencies(denoJson, bare, settings),
  };
}

/** The part of `deno.json` read: its import map and its tasks. */
interface DenoJson {
  imports?: Record<string, string>;
  tasks?: Record<string, string | { command?: string }>;
}

/** The project's TypeScript files, sorted, each with its imports and exports. */
interface ProjectGraph {
  readonly files: readonly string[];
  readonly parsed: ReadonlyMap<string, ModuleLinks>;
  /** The project file a relative import names, if it is one. */
  readonly resolveLocal: (from: string, specifier: string) => string | undefined;
}

async function readGraph(root: string): Promise<ProjectGraph> {
  const files = (await Promise.all(projectFolders.map((f) => tsFiles(root, f)))).flat().sort();
  const known = new Set(files);
  const parsed = new Map<string, ModuleLinks>();
  for (const path of files) {
    parsed.set(path, moduleLinks(path, await readFile(join(root, path), "utf8")));
  }
  const resolveLocal = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
    const target = normalize(join(dirname(from), specifier));
    return known.has(target) ? target : undefined;
  };
  return { files, parsed, resolveLocal };
}

/** The `.ts` files that `deno.json`'s tasks name. */
function taskScriptsOf(denoJson: DenoJson): string[] {
  return Object.values(denoJson.tasks ?? {}).flatMap((task) =>
    [...(typeof task === "string" ? task : task.command ?? "").matchAll(/[\w./-]+\.tsx?/g)]
      .map((m) => normalize(m[0]))
  );
}

/** The files the entry points reach through relative imports, the entry points included. */
function reachedFrom(graph: ProjectGraph, entries: readonly string[]): Set<string> {
  const reached = new Set(entries);
  const queue = [...reached];
  while (queue.length > 0) {
    const path = queue.pop()!;
    for (const link of graph.parsed.get(path)!.links) {
      const target = graph.resolveLocal(path, link.specifier);
      if (target !== undefined && !reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  return reached;
}

/**
 * What the reached files import: the names of each project file imported by another (`*` for a
 * namespace or re-export of all), and the bare specifiers (the import map's).
 */
function importsOf(
  graph: ProjectGraph,
  reached: ReadonlySet<string>,
): { used: Map<string, Set<string> | "*">; bare: Set<string> } {
  const used = new Map<string, Set<string> | "*">();
  const bare = new Set<string>();
  for (const path of reached) {
    for (const link of graph.parsed.get(path)!.links) {
      const target = graph.resolveLocal(path, link.specifier);
      if (target === undefined) {
        if (!/^(\.|\/|[a-z]+:)/.test(link.specifier)) bare.add(link.specifier);
        continue;
      }
      if (target === path) continue;
      const names = used.get(target);
      if (link.names === "*" || names === "*") used.set(target, "*");
      else used.set(target, new Set([...(names ?? []), ...link.names]));
    }
  }
  return { used, bare };
}

/** The exports of reached files (but `skipped` ones) that no other file imports. */
function unusedExports(
  graph: ProjectGraph,
  reached: ReadonlySet<string>,
  used: ReadonlyMap<string, Set<string> | "*">,
  settings: UnusedSettings,
  skipped: (path: string) => boolean,
): { path: string; line: number; name: string }[] {
  const exports: { path: string; line: number; name: string }[] = [];
  for (const path of [...reached].sort()) {
    if (skipped(path)) continue;
    const names = used.get(path);
    if (names === "*") continue;
    for (const exported of graph.parsed.get(path)!.exports) {
      if (names?.has(exported.name) || exported.public || excusedInFile(settings, exported)) {
        continue;
      }
      exports.push({ path, line: exported.line, name: exported.name });
    }
  }
  return exports;
}

/** The import map's entries (but ignored ones) that no bare specifier imports, sorted. */
function unusedDependencies(
  denoJson: DenoJson,
  bare: ReadonlySet<string>,
  settings: UnusedSettings,
): string[] {
  const ignoredDependencies = new Set(settings.ignoreDependencies ?? []);
  return Object.keys(denoJson.imports ?? {}).filter((key) =>
    !ignoredDependencies.has(key) &&
    ![...bare].some((specifier) =>
      key.endsWith("/") ? specifier.startsWith(key) : specifier === key ||
        specifier.startsWith(`${key}/`)
    )
  ).sort();
}

/**
 * The report as knip prints it: a titled list per kind of finding; empty when nothing is unused.
 *
 * @param report What {@link findUnused} found.
 * @returns The lines to print.
 */
export function formatUnused(report: UnusedReport): string {
  const sections: string[] = [];
  const section = (title: string, lines: readonly string[]) => {
    if (lines.length > 0) sections.push(`${title} (${lines.length})`, ...lines);
  };
  section("Unused files", report.files);
  section("Unused exports", report.exports.map((e) => `${e.path}:${e.line}  ${e.name}`));
  section("Unused dependencies", report.dependencies.map((d) => `${d}  deno.json`));
  return sections.join("\n");
}

function excusedInFile(settings: UnusedSettings, exported: ModuleExport): boolean {
  const rule = settings.ignoreExportsUsedInFile;
  if (!exported.usedInFile || rule === undefined || rule === false) return false;
  return rule === true || rule[exported.kind] === true;
}

async function readSettings(root: string): Promise<UnusedSettings> {
  const path = join(root, "knip.json");
  if (!existsSync(path)) return {};
  const settings = await readJson(path) as Record<string, unknown>;
  for (const key of ["entry", "ignore", "ignoreDependencies"]) {
    const value = settings[key];
    if (
      value !== undefined &&
      !(Array.isArray(value) && value.every((item) => typeof item === "string"))
    ) {
      throw new CliError(`'${path}': '${key}' must be a list of strings`);
    }
  }
  const inFile = settings.ignoreExportsUsedInFile;
  if (
    inFile !== undefined && typeof inFile !== "boolean" &&
    (typeof inFile !== "object" || inFile === null || Array.isArray(inFile) ||
      Object.values(inFile).some((v) => typeof v !== "boolean"))
  ) {
    throw new CliError(
      `'${path}': 'ignoreExportsUsedInFile' must be true, false or an object of booleans by kind`,
    );
  }
  return settings as UnusedSettings;
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new CliError(`'${path}' is not valid JSON: ${(error as Error).message}`);
  }
}

async function tsFiles(root: string, folder: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    if (!existsSync(dir)) return;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) await walk(path);
      } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        out.push(relative(root, path));
      }
    }
  }
  await walk(join(root, folder));
  return out;
}
