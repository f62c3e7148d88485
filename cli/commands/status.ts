import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { deriveConsumption } from "../derive/consumption.ts";
import { formatMergeOrder, mergeOrder } from "../derive/merge_order.ts";
import { checkContext } from "../generators/generate_simple.ts";
import { findProjectRoot, readConfig } from "../project/kit_config.ts";
import { readSlicePlan } from "../project/slice_plan.ts";

const markers = /TODO\(domain\)|TODO\(platform\)|it\.todo\(/;

/** The `file:line` of every `TODO(domain)`, `TODO(platform)` and `it.todo` of a context. */
export async function todos(cwd: string, context: string): Promise<string[]> {
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  checkContext(config, context);
  const found: { file: string; line: number; text: string }[] = [];
  for (const file of await sources(join(root, "src/contexts", context))) {
    (await readFile(file, "utf8")).split("\n").forEach((line, index) => {
      if (markers.test(line)) {
        found.push({
          file: relative(root, file),
          line: index + 1,
          text: line.trim().replace(/^(\/\/|\*|\/\*\*?)\s*/, ""),
        });
      }
    });
  }
  // By file, then by line number (7 before 10).
  return found.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
    .map((f) => `${f.file}:${f.line}  ${f.text}`);
}

/**
 * The slice plan by status and owner, the markers left in each context, and the merge order of
 * the contexts (upstream first, following the relationships and the events consumed).
 */
export async function status(cwd: string): Promise<string> {
  const root = findProjectRoot(cwd);
  const config = await readConfig(root);
  const rows = await readSlicePlan(root);
  const count = (key: (r: (typeof rows)[number]) => string) => {
    const map = new Map<string, number>();
    for (const row of rows) map.set(key(row), (map.get(key(row)) ?? 0) + 1);
    return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`)
      .join(", ");
  };
  const lines = [
    `Slices: ${rows.length} (${count((r) => r.status)})`,
    `By owner: ${count((r) => r.owner)}`,
    "Left to do:",
  ];
  for (const context of [...config.contexts].sort((a, b) => a.name.localeCompare(b.name))) {
    lines.push(`  ${context.name}: ${(await todos(root, context.name)).length}`);
  }
  lines.push(...formatMergeOrder(mergeOrder(config, deriveConsumption(root, config))));
  return lines.join("\n");
}

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await sources(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}
