import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { generatedParts } from "./generated_parts.ts";
import { planRoute } from "./generate_route.ts";
import { updatedMessageSpec } from "./message_spec_update.ts";
import { readMessageShape } from "./message_shape.ts";
import { messageUnderTestPart } from "./message_maker.ts";

/**
 * `kit generate command|query <context> <Name> --update`: after the message's inputs changed,
 * rewrites kit's parts that follow them: its spec's `message under test`, and its route's parts
 * when it has a route (as `kit generate route … --update`); every other line is kept. Refuses
 * another option (the message's files say what it is), a message the context lacks, and a spec
 * with no such part (written before kit marked it), writing nothing.
 */
export async function planMessageUpdate(
  root: string,
  config: KitConfig,
  kind: "command" | "query",
  context: string,
  name: string,
  given: readonly string[],
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, `${kind} name`);
  if (given.length > 0) {
    throw new CliError(
      `--update rewrites kit's parts from ${name} as it is: drop --${
        given[0]
      } (edit the message or its handler instead)`,
    );
  }
  const kebab = kebabOf(name);
  const folder = kind === "command" ? "commands" : "queries";
  const messagePath = `application/${folder}/${kebab}/${kebab}.${kind}.ts`;
  const base = `src/contexts/${context}`;
  if (!existsSync(join(root, base, messagePath))) {
    throw new CliError(
      `${
        kind === "command" ? "Command" : "Query"
      } '${name}' does not exist in context '${context}': 'kit generate ${kind} ${context} ${name}' (without --update) writes it`,
    );
  }
  const spec = `${base}/${messagePath.replace(/\.(command|query)\.ts$/, ".spec.ts")}`;
  const text = await readFile(join(root, spec), "utf8").catch(() => undefined);
  if (text === undefined || !generatedParts(text).has(messageUnderTestPart)) {
    throw new CliError(
      `${spec} has no '// kit:begin ${messageUnderTestPart}' … '// kit:end' part (written before kit marked it, or removed): make ${name} in its tests by hand`,
    );
  }
  const routed = ["controller", "route"].some((suffix) =>
    existsSync(join(root, `${base}/presentation/http/${kebab}.${suffix}.ts`))
  );
  if (routed) return await planRoute(root, config, context, name, { update: true });
  const shape = readMessageShape(join(root, base, messagePath), name);
  const write = await updatedMessageSpec(root, context, messagePath, shape);
  return await withDerived(root, config, write === undefined ? [] : [write]);
}
