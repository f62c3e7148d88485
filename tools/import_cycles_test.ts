/**
 * No import cycle in library or CLI code (kernel, http, jobs, cli): each file's relative imports
 * that load code (`import type` aside: it is erased), tests aside, form a graph without a cycle,
 * so that every module can be read, loaded and tested after the ones it uses. A cycle found is
 * named as the path that closes it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

function sources(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (
        !["testdata", "testdata", "tests", "types_test", "node_modules"].includes(entry.name)
      ) {
        sources(path, into);
      }
    } else if (/\.ts$/.test(entry.name) && !/(_test|\.test|_bench)\.ts$/.test(entry.name)) {
      into.push(path);
    }
  }
  return into;
}

/**
 * Each file's relative imports that load code (static `import`/`export ... from`, not
 * `import type`/`export type`), as paths from the root.
 */
function graph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const targets = [
      ...text.matchAll(/^(?:import|export)\s(?!type\s)[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms),
    ]
      .map((match) => relative(root, join(root, dirname(file), match[1]!)))
      .filter((target) => known.has(target));
    edges.set(file, targets);
  }
  return edges;
}

/** A cycle of the graph, as the files along it (the first repeated last), if there is one. */
export function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of [...edges.keys()].sort()) {
    if (state.get(file) === undefined) {
      const found = visit(file);
      if (found) return found;
    }
  }
  return undefined;
}

Deno.test("findCycle names the path that closes a cycle, and none in a tree", () => {
  assert.deepEqual(
    findCycle(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]])),
    ["a", "b", "c", "a"],
  );
  assert.equal(findCycle(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]])), undefined);
});

for (const pkg of ["kernel", "http", "jobs", "cli", "drizzle", "knex"]) {
  Deno.test(`no import cycle in ${pkg}/`, () => {
    const cycle = findCycle(graph(sources(pkg)));
    assert.equal(cycle, undefined, `import cycle: ${cycle?.join(" -> ")}`);
  });
}
