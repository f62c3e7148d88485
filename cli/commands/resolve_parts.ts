import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { formatPlan } from "../files/format_files.ts";
import { applyPlan, type FileWrite } from "../files/file_plan.ts";
import { planRoute } from "../generators/generate_route.ts";
import { updatedMessageSpec } from "../generators/message_spec_update.ts";
import { readMessageShape } from "../generators/message_shape.ts";
import { kebabOf, type KitConfig, pascalOf } from "../project/kit_config.ts";

/**
 * The command or query whose route or spec a file is, when kit can rewrite its parts: a route
 * (`presentation/http/<message>.controller.ts` or `.route.ts`) or its spec, or a message's own
 * spec (`application/commands/<message>/<message>.spec.ts`).
 */
export function partsOwner(path: string): { context: string; name: string } | undefined {
  const route =
    /^src\/contexts\/([a-z0-9-]+)\/presentation\/http\/([a-z0-9-]+)\.(controller|route)(\.spec)?\.ts$/
      .exec(path);
  const spec =
    /^src\/contexts\/([a-z0-9-]+)\/application\/(commands|queries)\/([a-z0-9-]+)\/\3\.spec\.ts$/
      .exec(path);
  if (route !== null) return { context: route[1]!, name: pascalOf(route[2]!) };
  if (spec !== null) return { context: spec[1]!, name: pascalOf(spec[3]!) };
  return undefined;
}

/**
 * Writes each file whose kit parts both sides changed with ours, then rewrites those parts from
 * the merged message and handler as `kit generate route … --update` does (a message's spec
 * without a route: its `message under test` part). A part that cannot be rewritten (the message
 * no longer parses, the route's markers are gone) puts git's conflicted text back and is refused,
 * naming the file and why.
 */
export async function rewriteParts(
  root: string,
  config: KitConfig,
  clashing: readonly FileWrite[],
): Promise<string[]> {
  const before = new Map<string, string>();
  for (const write of clashing) {
    before.set(write.path, await readFile(join(root, write.path), "utf8"));
  }
  await applyPlan(root, await formatPlan(root, [...clashing]));
  const paths = new Set(clashing.map((write) => write.path));
  const rewrites = new Map<string, FileWrite>();
  try {
    for (const write of clashing) {
      const owner = partsOwner(write.path)!;
      for (const rewrite of await planParts(root, config, owner.context, owner.name)) {
        if (paths.has(rewrite.path)) rewrites.set(rewrite.path, rewrite);
      }
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    for (const [path, text] of before) await writeFile(join(root, path), text);
    throw new CliError(
      `resolve: kit's parts of ${
        [...paths].join(", ")
      } changed on both sides, and rewriting them from the merged sources failed (${error.message}): merge them by hand, then run 'kit resolve' again`,
    );
  }
  await applyPlan(root, await formatPlan(root, [...rewrites.values()]));
  return [...paths].sort();
}

/**
 * The rewrite of a message's route and specs (its route's `--update`), or of its spec alone when
 * it has no route.
 */
async function planParts(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
): Promise<FileWrite[]> {
  const kebab = kebabOf(name);
  const routes = ["controller", "route"].map((kind) =>
    `src/contexts/${context}/presentation/http/${kebab}.${kind}.ts`
  );
  if (routes.some((route) => existsSync(join(root, route)))) {
    return await planRoute(root, config, context, name, { update: true });
  }
  const kind = existsSync(join(root, `src/contexts/${context}/application/commands/${kebab}`))
    ? "command"
    : "query";
  const messagePath = `application/${
    kind === "command" ? "commands" : "queries"
  }/${kebab}/${kebab}.${kind}.ts`;
  const shape = readMessageShape(join(root, `src/contexts/${context}`, messagePath), name);
  const spec = await updatedMessageSpec(root, context, messagePath, shape);
  return spec === undefined ? [] : [spec];
}
