import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { FileWrite } from "./file_plan.ts";

/**
 * Formats planned files with `deno fmt` before anything is written, under the project's own fmt
 * settings, so that generated and derived files pass `deno fmt --check` and compare byte for byte.
 * One `deno fmt` run for the whole plan, in a temporary copy.
 */
export async function formatPlan(root: string, writes: readonly FileWrite[]): Promise<FileWrite[]> {
  const formattable = writes.filter((w) =>
    /\.(ts|md|json|cjs)$/.test(w.path) && w.path !== "deno.json" && !w.remove
  );
  if (formattable.length === 0) return [...writes];
  const scratch = await Deno.makeTempDir({ prefix: "kit-fmt-" });
  try {
    if (existsSync(join(root, "deno.json"))) {
      await copyFile(join(root, "deno.json"), join(scratch, "deno.json"));
    }
    const planned = writes.find((w) => w.path === "deno.json");
    if (planned) await writeFile(join(scratch, "deno.json"), planned.contents);
    for (const write of formattable) {
      await mkdir(dirname(join(scratch, write.path)), { recursive: true });
      await writeFile(join(scratch, write.path), write.contents);
    }
    await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--quiet", ...formattable.map((w) => w.path)],
      cwd: scratch,
      stdout: "null",
      stderr: "null",
    }).output();
    const formatted = new Map<string, string>();
    for (const write of formattable) {
      formatted.set(write.path, await readFile(join(scratch, write.path), "utf8"));
    }
    return writes.map((
      w,
    ) => (formatted.has(w.path) ? { ...w, contents: formatted.get(w.path)! } : w));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
