import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readModuleSyntax } from "../derive/module_syntax.ts";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { builderNames, planBuilder } from "./aggregate_builder.ts";
import { didYouMean, messagesOf } from "./close_names.ts";
import { withBuilderDeclaration } from "./builder_module.ts";
import { generatorTemplate } from "../templates/project_template.ts";

interface Input {
  readonly name: string;
  readonly type: string;
  readonly date: boolean;
}

/**
 * Plans a background job sending a command as the enqueuing actor: one payload field per other
 * input of the command (a date as ISO text; a value object is refused, since commands take
 * primitives and ids), and a spec that enqueues it as a user, runs what is due, and checks the
 * command reached the bus once, with that user as its actor, in their tenant. In the decorator
 * style the class is `@Background()`; in the builder style (`"declarations": "builder"`) it has no
 * decorator and the module file declares it with `builder.backgroundJob(..)`.
 */
export async function planBackgroundJob(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  command: string | undefined,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "job name");
  if (command === undefined) {
    throw new CliError("kit generate background-job needs --command <UseCase>");
  }
  const kebab = kebabOf(name);
  const dir = `src/contexts/${context}/application/background`;
  if (existsSync(join(root, dir, `${kebab}.job.ts`))) {
    throw new CliError(`Background job '${name}' exists already in context '${context}'`);
  }
  const commandKebab = kebabOf(command);
  const commandFile =
    `src/contexts/${context}/application/commands/${commandKebab}/${commandKebab}.command.ts`;
  if (!existsSync(join(root, commandFile))) {
    throw new CliError(
      `Unknown command '${command}' in context '${context}': ${
        didYouMean(command, messagesOf(root, context, "command")) ?? `'${commandFile}' is missing`
      }`,
    );
  }
  const inputs = await commandInputs(join(root, commandFile), command);
  const loaded = await aggregateLoadedBy(
    join(root, commandFile.replace(/\.command\.ts$/, ".handler.ts")),
  );
  const payload = inputs.map((i) => `  readonly ${i.name}: ${i.date ? "string" : i.type};`).join(
    "\n",
  );
  const args = inputs.map((i) => (i.date ? `new Date(payload.${i.name})` : `payload.${i.name}`));
  const camel = camelOf(context);
  const builder = config.declarations === "builder";
  const job = generatorTemplate("background-job/job.ts", {
    backgroundImport: builder ? "" : `import { Background } from "@kit/jobs";\n`,
    command,
    commandKebab,
    payloadType: inputs.length === 0
      ? `export type ${name}Payload = Record<string, never>;`
      : `export interface ${name}Payload {\n${payload}\n}`,
    doc: builder
      ? `/**\n * Sends ${command} later, as the actor who enqueued it. Declared in \`${context}.module.ts\` with\n * \`builder.backgroundJob\`.\n */`
      : `/** Sends ${command} later, as the actor who enqueued it. */`,
    decorator: builder ? "" : "@Background()\n",
    name,
    context,
    kebab,
    payloadParameter: inputs.length === 0 ? "_payload" : "payload",
    args: ["execution.actor", ...args].join(", "),
  });
  const sample = inputs.map((i) =>
    `${i.name}: ${
      i.date
        ? '"2026-01-01T09:00:00.000Z"'
        : i.type === "number"
        ? "1"
        : i.type === "boolean"
        ? "true"
        : `"${i.name}-1"`
    }`
  ).join(", ");
  // A command on an aggregate loads it: the spec keeps the one its payload names.
  const seeded = loaded === undefined ? undefined : {
    ...loaded,
    variable: `${camelOf(loaded.kebab)}s`,
    id: inputs.some((i) => i.name === `${camelOf(loaded.kebab)}Id`)
      ? `"${camelOf(loaded.kebab)}Id-1"`
      : undefined,
  };
  const seededImports = seeded === undefined
    ? ""
    : `${
      seeded.id === undefined
        ? ""
        : `import { ${
          builderNames(seeded.aggregate).instance
        } } from "../../domain/${seeded.kebab}.builder.ts";\n`
    }import { ${seeded.aggregate}Repository } from "../ports/${seeded.kebab}-repository.ts";
import { InMemory${seeded.aggregate}Repository } from "../../infrastructure/${seeded.kebab}.memory-repository.ts";
`;
  const seededRepository = seeded === undefined
    ? ""
    : `  const ${seeded.variable} = new InMemory${seeded.aggregate}Repository();\n${
      seeded.id === undefined
        ? ""
        : `  await runInScope({ execution }, () => ${seeded.variable}.add(${
          builderNames(seeded.aggregate).instance
        }(${seeded.id})));\n`
    }`;
  const spec = generatorTemplate("background-job/job.spec.ts", {
    camel,
    context,
    name,
    kebab,
    command,
    sample,
    seededImports,
    seededRepository,
    seededProvider: seeded === undefined
      ? ""
      : `\n    providers: [{ provide: ${seeded.aggregate}Repository, provider: { useValue: ${seeded.variable} } }],`,
  });
  const modulePath = `src/contexts/${context}/${context}.module.ts`;
  const moduleWrite: FileWrite[] = builder
    ? [{
      path: modulePath,
      contents: withBuilderDeclaration(await readFile(join(root, modulePath), "utf8"), modulePath, {
        imports: [
          `import { CommandBus } from "@kit/kernel";`,
          `import { ${name} } from "./application/background/${kebab}.job.ts";`,
        ],
        call: (b) => `${b}.backgroundJob(${name}, { deps: [CommandBus] });`,
      }),
    }]
    : [];
  return await withDerived(root, config, [
    { path: `${dir}/${kebab}.job.ts`, contents: job, create: true },
    ...moduleWrite,
    { path: `${dir}/${kebab}.spec.ts`, contents: spec, create: true },
    ...(seeded?.id === undefined ? [] : await planBuilder(root, context, seeded.aggregate)),
  ]);
}

/** The aggregate a command's handler loads through its repository port, if it does. */
async function aggregateLoadedBy(
  handlerFile: string,
): Promise<{ aggregate: string; kebab: string } | undefined> {
  if (!existsSync(handlerFile)) return undefined;
  const match =
    /import \{ (\w+)Repository \} from "\.\.\/\.\.\/ports\/([a-z0-9-]+)-repository\.ts";/
      .exec(await readFile(handlerFile, "utf8"));
  return match === null ? undefined : { aggregate: match[1]!, kebab: match[2]! };
}

async function commandInputs(file: string, command: string): Promise<Input[]> {
  const cls = readModuleSyntax(await readFile(file, "utf8"), file).classes.find((c) =>
    c.name === command
  );
  if (cls === undefined) throw new CliError(`'${file}' declares no class '${command}'`);
  return cls.constructorParameters.slice(1).map((parameter) => {
    const type = parameter.typeText ?? "unknown";
    const date = type === "Date";
    const primitive = ["string", "number", "boolean"].includes(type) ||
      parameter.literalType === true;
    if (!date && !primitive) {
      throw new CliError(
        `Command '${command}' takes '${parameter.name}: ${type}', a value object: commands take primitives and ids`,
      );
    }
    return { name: parameter.name, type, date };
  });
}
