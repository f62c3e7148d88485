import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { KitConfig } from "../project/kit_config.ts";
import { readModuleSyntax } from "./module_syntax.ts";

/** A context consuming the integration events of another: the edge `upstream → downstream`. */
export interface Consumption {
  /** The context that publishes the events. */
  readonly upstream: string;
  /** The context whose code imports them. */
  readonly downstream: string;
  /** The events consumed, by the names their declarations export, sorted. */
  readonly events: readonly string[];
}

/**
 * Derives who consumes whose events from the code: a context consumes an event when one of its
 * sources (specs and tests aside) imports it from another context's
 * `published-language/<event>.event.ts`, as every `generate integration-handler` does. Reads
 * `overlay` (planned writes, by path from the root) before the disk. Sorted by upstream, then
 * downstream.
 */
export function deriveConsumption(
  root: string,
  config: KitConfig,
  overlay: ReadonlyMap<string, string> = new Map(),
): Consumption[] {
  const contexts = new Set(config.contexts.map((c) => c.name));
  const edges = new Map<string, Set<string>>();
  for (const context of [...contexts].sort()) {
    const base = `src/contexts/${context}`;
    const planned = [...overlay.keys()].filter((path) => path.startsWith(base + "/"));
    const files = [...new Set([...sources(root, base), ...planned])].sort()
      .filter((path) =>
        path.endsWith(".ts") && !path.endsWith(".spec.ts") && !path.endsWith("_test.ts") &&
        !path.endsWith(".test.ts")
      );
    for (const path of files) {
      const text = overlay.get(path) ?? readFileSync(join(root, path), "utf8");
      // Only a file that names a published language can import an event: the others are not
      // parsed (most of a context).
      if (!text.includes("published-language/")) continue;
      for (const declaration of readModuleSyntax(text, path).imports) {
        const target = resolveImport(path, declaration.from);
        const match = target === undefined
          ? null
          : /^src\/contexts\/([^/]+)\/published-language\/[^/]+\.event\.ts$/.exec(target);
        const upstream = match?.[1];
        if (upstream === undefined || upstream === context || !contexts.has(upstream)) continue;
        const key = `${upstream}\u0000${context}`;
        const events = edges.get(key) ?? new Set<string>();
        for (const name of declaration.exported) events.add(name);
        edges.set(key, events);
      }
    }
  }
  return [...edges.entries()].map(([key, events]) => {
    const [upstream, downstream] = key.split("\u0000") as [string, string];
    return { upstream, downstream, events: [...events].sort() };
  }).sort((a, b) =>
    a.upstream.localeCompare(b.upstream) || a.downstream.localeCompare(b.downstream)
  );
}

/** The path from the root a relative import of `from` names; undefined for a bare one. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

function sources(root: string, dir: string): string[] {
  const absolute = join(root, dir);
  if (!existsSync(absolute)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(absolute, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}
