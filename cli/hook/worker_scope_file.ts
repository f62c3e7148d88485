import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { WorkerScope } from "./pre_tool_use.ts";

/**
 * The worker scope of the worktree holding `cwd`: the nearest `.kit/worker.json` above it.
 * Undefined when there is none, or it is unreadable or malformed (the hook then fails open).
 */
export async function findWorkerScope(cwd: string): Promise<WorkerScope | undefined> {
  let dir = resolve(cwd);
  while (true) {
    const file = join(dir, ".kit", "worker.json");
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text !== undefined) {
      try {
        const parsed = JSON.parse(text) as { context?: unknown };
        return typeof parsed.context === "string" && /^[a-z][a-z0-9-]*$/.test(parsed.context)
          ? { root: dir, context: parsed.context }
          : undefined;
      } catch {
        return undefined;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
