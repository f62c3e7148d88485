import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";

/** The folders never searched: git's, kit's own state, installed packages. */
const skipped = new Set([".git", ".kit", "node_modules"]);

/** The files searched: the project's text (sources, documents, settings). */
const textExtensions = new Set([
  ".ts",
  ".tsx",
  ".js",
  ".mjs",
  ".cjs",
  ".json",
  ".jsonc",
  ".lock",
  ".md",
  ".yaml",
  ".yml",
  ".sql",
  ".html",
  ".css",
  ".txt",
  ".sh",
  ".toml",
]);

/** A line git writes where a conflict starts or ends (`<<<<<<< HEAD`, `>>>>>>> theirs`). */
const marker = /^(<{7}|>{7})(?: |$)/m;

/** Files larger than this are data, not sources: not searched. */
const largest = 2_000_000;

/**
 * The files of the project that hold a line git writes at a conflict (`<<<<<<< ` or `>>>>>>> `
 * at the start of a line), each as `path:line` of its first such line, in path order. A merge
 * left half done: such a file compiles no more, or, in a Markdown or JSON document, silently says
 * two things. Searches every text file under `root` but `.git/`, `.kit/` and `node_modules/`.
 *
 * @example
 * ```ts
 * import { conflictMarkers } from "./conflict_markers.ts";
 * conflictMarkers("/path/to/project"); // ["src/platform/compose-application.ts:12"]
 * ```
 */
export function conflictMarkers(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    const path = dir === "" ? root : join(root, dir);
    if (!existsSync(path)) return;
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const relative = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skipped.has(entry.name)) walk(relative);
        continue;
      }
      if (!entry.isFile() || !textExtensions.has(extname(entry.name))) continue;
      const file = join(root, relative);
      if (statSync(file).size > largest) continue;
      const text = readFileSync(file, "utf8");
      const match = marker.exec(text);
      if (match === null) continue;
      found.push(`${relative}:${text.slice(0, match.index).split("\n").length}`);
    }
  };
  walk("");
  return found.sort();
}

/** The line `kit docs --check` prints for a file holding a conflict marker. */
export function markerLine(at: string): string {
  return `error conflict-markers: ${at} holds a conflict marker (<<<<<<< or >>>>>>>): merge it by hand or with 'kit resolve', then stage it`;
}
