import { existsSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { aOrAn, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { builderFile, builderNames, builderPath } from "./aggregate_builder.ts";
import { didYouMean, orThe } from "./close_names.ts";
import { generatorTemplate } from "../templates/project_template.ts";

/** Refuses an unknown context, naming the known ones. */
export function checkContext(config: KitConfig, context: string): void {
  if (!config.contexts.some((c) => c.name === context)) {
    throw new CliError(
      `Unknown context '${context}': ${
        orThe(didYouMean(context, config.contexts.map((c) => c.name)))
      }contexts are ${config.contexts.map((c) => c.name).join(", ") || "none"}`,
    );
  }
}

/**
 * Plans an aggregate: the domain class with an identity, its snapshot (the plain data its
 * repository keeps, with the tenant and the version beside it), its test builder (the one place
 * specs make one: `<aggregate>.builder.ts`) and a spec.
 */
export async function planAggregate(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "aggregate name");
  const kebab = kebabOf(name);
  const path = `src/contexts/${context}/domain/${kebab}.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Aggregate '${name}' exists already in context '${context}'`);
  }
  const builder = builderNames(name);
  return await withDerived(root, config, [
    { path, create: true, contents: aggregateFile(name) },
    { path: builderPath(context, name), create: true, contents: builderFile(name, undefined) },
    {
      path: `src/contexts/${context}/domain/${kebab}.spec.ts`,
      create: true,
      contents: generatorTemplate("aggregate/aggregate.spec.ts", {
        name,
        kebab,
        instance: builder.instance,
        arguments: builder.arguments,
        builderFile: builder.file,
      }),
    },
  ]);
}

function aggregateFile(name: string): string {
  const one = aOrAn(name);
  const sentenceStart = one.replace(/^a/, "A");
  return generatorTemplate("aggregate/aggregate.ts", { one, name, sentenceStart });
}

/** Plans a port: an interface of the application and its token, sharing one name. */
export async function planPort(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "port name");
  const path = `src/contexts/${context}/application/ports/${kebabOf(name)}.ts`;
  if (existsSync(join(root, path))) {
    throw new CliError(`Port '${name}' exists already in context '${context}'`);
  }
  return await withDerived(root, config, [{
    path,
    create: true,
    contents: generatorTemplate("port/port.ts", { name, context }),
  }]);
}
