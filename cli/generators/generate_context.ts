import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf, checkKebab, formatConfig, type KitConfig } from "../project/kit_config.ts";
import { contextFiles } from "../project/templates.ts";
import { withDerived } from "../commands/docs.ts";

/** Plans a new context: its folder, its registration in the platform, the config and the map. */
export async function planContext(
  root: string,
  config: KitConfig,
  name: string,
  kind: string,
): Promise<FileWrite[]> {
  checkKebab(name, "context name");
  if (!["core", "supporting", "generic"].includes(kind)) {
    throw new CliError(`Invalid --kind '${kind}': use core, supporting or generic`);
  }
  if (config.contexts.some((c) => c.name === name)) {
    throw new CliError(`Context '${name}' exists already`);
  }
  const next: KitConfig = { ...config, contexts: [...config.contexts, { name, kind }] };
  const composePath = "src/platform/compose-application.ts";
  let compose = await readFile(join(root, composePath), "utf8");
  compose = updateRegion(compose, "module-imports", [
    ...readRegion(compose, "module-imports", composePath),
    `import { ${camelOf(name)}Module } from "../contexts/${name}/${name}.module.ts";`,
  ], composePath);
  compose = updateRegion(
    compose,
    "modules",
    [...readRegion(compose, "modules", composePath), `${camelOf(name)}Module,`],
    composePath,
  );
  return await withDerived(root, next, [
    ...contextFiles(name, kind).map((file) => ({ ...file, create: true })),
    { path: composePath, contents: compose },
    { path: "kit.config.json", contents: formatConfig(next) },
  ]);
}
