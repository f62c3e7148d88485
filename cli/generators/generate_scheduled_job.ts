import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readModuleSyntax } from "../derive/module_syntax.ts";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { didYouMean, messagesOf } from "./close_names.ts";
import { generatorTemplate } from "../templates/project_template.ts";
import { builderWrites, inBuilderStyle, optionsOf } from "./builder_style.ts";

/**
 * Plans a scheduled job: `@Scheduled({ every })` (in the builder style, no decorator and
 * `builder.scheduledJob(..)` in the module file), run once per tick as the system actor, sending
 * a command that takes only its actor when `--command` names one; and a spec that moves the test
 * clock to the next tick and runs what is due.
 */
export async function planScheduledJob(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  options: { every?: string; command?: string },
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "job name");
  const every = checkEvery(options.every);
  const kebab = kebabOf(name);
  const dir = `src/contexts/${context}/application/background`;
  if (existsSync(join(root, dir, `${kebab}.job.ts`))) {
    throw new CliError(`Job '${name}' exists already in context '${context}'`);
  }
  const command = options.command;
  const tick = command === undefined ? todoTick : await commandTick(root, context, command);
  const job: FileWrite = {
    path: `${dir}/${kebab}.job.ts`,
    create: true,
    contents: generatorTemplate("job/job.ts", {
      commandBusImport: command ? ", CommandBus" : "",
      sendImport: tick.sendImport,
      every,
      name,
      context,
      kebab,
      constructor: command ? "\n  constructor(private readonly commands: CommandBus) {}\n" : "",
      async: command ? "async " : "",
      send: tick.send,
    }),
  };
  const declared = await builderDeclaration(root, config, context, name, every, job);
  return await withDerived(root, config, [
    ...(declared === undefined ? [job] : [declared.file, declared.module]),
    {
      path: `${dir}/${kebab}.spec.ts`,
      create: true,
      contents: generatorTemplate("job/job.spec.ts", {
        camel: camelOf(context),
        context,
        name,
        kebab,
        every,
        everyMs: String(everyMs(every)),
      }),
    },
  ]);
}

/** What a job does at every tick: the import it needs and its body. */
interface Tick {
  readonly sendImport: string;
  readonly send: string;
}

const todoTick: Tick = {
  sendImport: "",
  send:
    "    // TODO(domain): what runs at every tick.\n    void payload;\n    void execution;\n    return Promise.resolve();",
};

const interval = /^(\d+)(ms|s|m|h|d)$/;

function checkEvery(every: string | undefined): string {
  if (every === undefined || !interval.test(every)) {
    throw new CliError(
      `kit generate job needs --every <interval> (30s, 5m, 1h, 1d), got ${
        JSON.stringify(every ?? "")
      }`,
    );
  }
  return every;
}

function everyMs(every: string): number {
  const [, amount, unit] = interval.exec(every)!;
  return Number(amount) *
    { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as "ms"];
}

/** A tick sending `command`, which must exist and take only its actor. */
async function commandTick(root: string, context: string, command: string): Promise<Tick> {
  const commandKebab = kebabOf(command);
  const file =
    `src/contexts/${context}/application/commands/${commandKebab}/${commandKebab}.command.ts`;
  if (!existsSync(join(root, file))) {
    throw new CliError(
      `Unknown command '${command}' in context '${context}': ${
        didYouMean(command, messagesOf(root, context, "command")) ?? `'${file}' is missing`
      }`,
    );
  }
  const cls = readModuleSyntax(await readFile(join(root, file), "utf8"), file).classes.find((c) =>
    c.name === command
  );
  const inputs = cls?.constructorParameters.slice(1) ?? [];
  if (inputs.length > 0) {
    throw new CliError(
      `Command '${command}' takes inputs (${
        inputs.map((p) => p.name).join(", ")
      }): a scheduled job sends a command that takes only its actor`,
    );
  }
  return {
    sendImport:
      `import { ${command} } from "../commands/${commandKebab}/${commandKebab}.command.ts";\n`,
    send: `    void payload;\n    await this.commands.execute(new ${command}(execution.actor));`,
  };
}

/** The builder style: no decorator, `builder.scheduledJob(..)` in the module file. */
async function builderDeclaration(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  every: string,
  job: FileWrite,
): Promise<{ file: FileWrite; module: FileWrite } | undefined> {
  if (!inBuilderStyle(config)) return undefined;
  return await builderWrites(root, context, {
    path: job.path,
    text: job.contents,
    className: name,
    decorator: "Scheduled",
    from: "@kit/jobs",
    call: (builder, deps) =>
      `${builder}.scheduledJob(${name}, ${optionsOf(`every: "${every}"`, deps)});`,
  });
}
