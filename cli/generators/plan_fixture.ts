/**
 * A project for testing generator plans without a subprocess: what `kit init` writes (with its
 * derived files), unformatted, in a temporary directory; and each kind's plan, applied or not.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { projectFiles } from "../commands/init.ts";
import { withDerived } from "../commands/docs.ts";
import { type KitConfig, readConfig } from "../project/kit_config.ts";
import { planners } from "./planners.ts";

/** The project the plans are tested in: three contexts, the database queue. */
export const planConfig: KitConfig = {
  name: "clinic",
  contexts: [
    { name: "scheduling", kind: "core" },
    { name: "identity", kind: "supporting" },
    { name: "notifications", kind: "generic" },
  ],
  relationships: [],
  queue: "database",
  declarations: "decorators",
};

let initial: Promise<FileWrite[]> | undefined;

/**
 * A new project laid out as `kit init` does (unformatted), in a temporary directory; the files
 * are planned once per process.
 */
export async function planProject(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "kit-plan-" });
  initial ??= withDerived(root, planConfig, projectFiles(planConfig, [], ["deno"]));
  await applyPlan(root, await initial);
  return root;
}

/** The plan of `kit generate <kind> <names...>` with `options` in the project at `root`. */
export async function planOf(
  root: string,
  kind: string,
  names: readonly string[],
  options: Readonly<Record<string, string | boolean | readonly string[]>> = {},
): Promise<FileWrite[]> {
  return await planners[kind]!({ root, config: await readConfig(root), names, options });
}

/** Plans `kit generate <kind> ...` and writes the plan: a prerequisite of the kind tested. */
export async function generated(
  root: string,
  kind: string,
  names: readonly string[],
  options: Readonly<Record<string, string | boolean | readonly string[]>> = {},
): Promise<void> {
  await applyPlan(root, await planOf(root, kind, names, options));
}

const derived =
  /(\.declarations\.ts|\.dependencies\.ts|\/CONTEXT\.md|docs\/context-map\.md|\.dependency-cruiser\.cjs)$/;

/**
 * The files a plan writes in the project at `root` that it changes, the derived ones left out:
 * `+path` new, `~path` changed.
 */
export function written(root: string, plan: readonly FileWrite[]): string[] {
  const changes = (write: FileWrite) =>
    !existsSync(join(root, write.path)) ||
    readFileSync(join(root, write.path), "utf8") !== write.contents;
  return plan.filter((write) => !derived.test(write.path) && changes(write))
    .map((write) => `${write.create ? "+" : "~"}${write.path}`)
    .sort();
}

/** The planned contents of `path`. */
export function contents(plan: readonly FileWrite[], path: string): string {
  const write = plan.find((w) => w.path === path);
  assert.ok(write, `the plan writes ${path}`);
  return write.contents;
}
