import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, formatConfig, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** A deployable service as `kit.config.json` records it. */
interface ServiceEntry {
  readonly name: string;
  readonly contexts: readonly string[];
}

/**
 * Plans a deployable service `apps/<context>`: the context's module alone, composed on the
 * platform (so its access policy honours the explicit policies of `access-policies.ts`) and served
 * by its own process, with a spec that it composes; recorded under `services` in `kit.config.json`.
 */
export async function planService(
  root: string,
  config: KitConfig,
  context: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  const dir = `apps/${context}`;
  if (existsSync(join(root, dir))) {
    throw new CliError(`Service '${context}' exists already (${dir})`);
  }
  const camel = camelOf(context);
  const current = JSON.parse(await readFile(join(root, "kit.config.json"), "utf8")) as
    & KitConfig
    & { services?: ServiceEntry[] };
  const services = [...(current.services ?? []), { name: context, contexts: [context] }]
    .sort((a, b) => a.name.localeCompare(b.name));
  return [
    {
      path: `${dir}/service.ts`,
      create: true,
      contents: generatorTemplate("service/service.ts", { camel, context }),
    },
    {
      path: `${dir}/main.ts`,
      create: true,
      contents: generatorTemplate("service/main.ts", { context }),
    },
    {
      path: `test/services/${context}.spec.ts`,
      create: true,
      contents: generatorTemplate("service/service.spec.ts", { context }),
    },
    { path: "kit.config.json", contents: formatConfig({ ...config, services } as KitConfig) },
  ];
}
