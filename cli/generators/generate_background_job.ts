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
  const job = jobNames(context, name, requireCommand(command));
  checkJobIsNew(root, job);
  checkCommandExists(root, job);
  const inputs = await commandInputs(join(root, job.commandFile), job.command);
  const loaded = await aggregateLoadedBy(
    join(root, job.commandFile.replace(/\.command\.ts$/, ".handler.ts")),
  );
  const seeded = seededAggregate(loaded, inputs);
  const builder = config.declarations === "builder";
  const jobFile = jobTemplate(job, inputs, builder);
  const spec = specTemplate(job, inputs, seeded);
  const moduleWrite = builder ? [await moduleDeclaration(root, job)] : [];
  return await withDerived(root, config, [
    { path: `${job.dir}/${job.kebab}.job.ts`, contents: jobFile, create: true },
    ...moduleWrite,
    { path: `${job.dir}/${job.kebab}.spec.ts`, contents: spec, create: true },
    ...(seeded?.id === undefined ? [] : await planBuilder(root, context, seeded.aggregate)),
  ]);
}

/** The names and paths of a background job and of the command it sends. */
interface JobNames {
  readonly context: string;
  readonly name: string;
  readonly kebab: string;
  readonly dir: string;
  readonly command: string;
  readonly commandKebab: string;
  readonly commandFile: string;
}

/** The aggregate a job's spec seeds: the one its command's handler loads. */
interface SeededAggregate {
  readonly aggregate: string;
  readonly kebab: string;
  readonly variable: string;
  /** The id its payload names, when it names one: the spec adds an aggregate with that id. */
  readonly id: string | undefined;
}

function requireCommand(command: string | undefined): string {
  if (command === undefined) {
    throw new CliError("kit generate background-job needs --command <UseCase>");
  }
  return command;
}

function jobNames(context: string, name: string, command: string): JobNames {
  const commandKebab = kebabOf(command);
  return {
    context,
    name,
    kebab: kebabOf(name),
    dir: `src/contexts/${context}/application/background`,
    command,
    commandKebab,
    commandFile:
      `src/contexts/${context}/application/commands/${commandKebab}/${commandKebab}.command.ts`,
  };
}

function checkJobIsNew(root: string, job: JobNames): void {
  if (existsSync(join(root, job.dir, `${job.kebab}.job.ts`))) {
    throw new CliError(`Background job '${job.name}' exists already in context '${job.context}'`);
  }
}

function checkCommandExists(root: string, job: JobNames): void {
  const { command, context, commandFile } = job;
  if (!existsSync(join(root, commandFile))) {
    throw new CliError(
      `Unknown command '${command}' in context '${context}': ${
        didYouMean(command, messagesOf(root, context, "command")) ?? `'${commandFile}' is missing`
      }`,
    );
  }
}

/** A command on an aggregate loads it: the spec keeps the one its payload names. */
function seededAggregate(
  loaded: { aggregate: string; kebab: string } | undefined,
  inputs: readonly Input[],
): SeededAggregate | undefined {
  if (loaded === undefined) return undefined;
  const camel = camelOf(loaded.kebab);
  return {
    ...loaded,
    variable: `${camel}s`,
    id: inputs.some((i) => i.name === `${camel}Id`) ? `"${camel}Id-1"` : undefined,
  };
}

function jobTemplate(job: JobNames, inputs: readonly Input[], builder: boolean): string {
  const { name, command, context } = job;
  const args = inputs.map((i) => (i.date ? `new Date(payload.${i.name})` : `payload.${i.name}`));
  return generatorTemplate("background-job/job.ts", {
    backgroundImport: builder ? "" : `import { Background } from "@kit/jobs";\n`,
    command,
    commandKebab: job.commandKebab,
    payloadType: payloadType(name, inputs),
    doc: builder
      ? `/**\n * Sends ${command} later, as the actor who enqueued it. Declared in \`${context}.module.ts\` with\n * \`builder.backgroundJob\`.\n */`
      : `/** Sends ${command} later, as the actor who enqueued it. */`,
    decorator: builder ? "" : "@Background()\n",
    name,
    context,
    kebab: job.kebab,
    payloadParameter: inputs.length === 0 ? "_payload" : "payload",
    args: ["execution.actor", ...args].join(", "),
  });
}

/** One payload field per input, a date as ISO text. */
function payloadType(name: string, inputs: readonly Input[]): string {
  const payload = inputs.map((i) => `  readonly ${i.name}: ${i.date ? "string" : i.type};`).join(
    "\n",
  );
  return inputs.length === 0
    ? `export type ${name}Payload = Record<string, never>;`
    : `export interface ${name}Payload {\n${payload}\n}`;
}

function specTemplate(
  job: JobNames,
  inputs: readonly Input[],
  seeded: SeededAggregate | undefined,
): string {
  return generatorTemplate("background-job/job.spec.ts", {
    camel: camelOf(job.context),
    context: job.context,
    name: job.name,
    kebab: job.kebab,
    command: job.command,
    sample: samplePayload(inputs),
    seededImports: seededImports(seeded),
    seededRepository: seededRepository(seeded),
    seededProvider: seeded === undefined
      ? ""
      : `\n    providers: [{ provide: ${seeded.aggregate}Repository, provider: { useValue: ${seeded.variable} } }],`,
  });
}

/** A sample value for each payload field, as the spec enqueues it. */
function samplePayload(inputs: readonly Input[]): string {
  return inputs.map((i) =>
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
}

function seededImports(seeded: SeededAggregate | undefined): string {
  if (seeded === undefined) return "";
  return `${
    seeded.id === undefined
      ? ""
      : `import { ${
        builderNames(seeded.aggregate).instance
      } } from "../../domain/${seeded.kebab}.builder.ts";\n`
  }import { ${seeded.aggregate}Repository } from "../ports/${seeded.kebab}-repository.ts";
import { InMemory${seeded.aggregate}Repository } from "../../infrastructure/${seeded.kebab}.memory-repository.ts";
`;
}

function seededRepository(seeded: SeededAggregate | undefined): string {
  if (seeded === undefined) return "";
  return `  const ${seeded.variable} = new InMemory${seeded.aggregate}Repository();\n${
    seeded.id === undefined
      ? ""
      : `  await runInScope({ execution }, () => ${seeded.variable}.add(${
        builderNames(seeded.aggregate).instance
      }(${seeded.id})));\n`
  }`;
}

/** In the builder style, the module file declares the job with `builder.backgroundJob(..)`. */
async function moduleDeclaration(root: string, job: JobNames): Promise<FileWrite> {
  const modulePath = `src/contexts/${job.context}/${job.context}.module.ts`;
  return {
    path: modulePath,
    contents: withBuilderDeclaration(await readFile(join(root, modulePath), "utf8"), modulePath, {
      imports: [
        `import { CommandBus } from "@kit/kernel";`,
        `import { ${job.name} } from "./application/background/${job.kebab}.job.ts";`,
      ],
      call: (b) => `${b}.backgroundJob(${job.name}, { deps: [CommandBus] });`,
    }),
  };
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
