import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import {
  camelOf,
  checkPascal,
  kebabOf,
  type KitConfig,
  type Orm,
  ormOf,
  pascalOf,
} from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { didYouMean, eventsOf } from "./close_names.ts";
import { sampleValue } from "./generate_events.ts";
import { generatorTemplate } from "../templates/project_template.ts";
import { builderWrites, inBuilderStyle, optionsOf } from "./builder_style.ts";

/** What `kit generate process-manager` is given besides the context and the name. */
export interface ProcessManagerOptions {
  /** The event that starts an instance. */
  readonly startsOn?: string;
  /** The events an instance handles once started. */
  readonly handles?: readonly string[];
  /** The deadlines it may request, in the order they fall due. */
  readonly deadlines?: readonly string[];
}

/** An event a process manager names, found in a context's published language. */
interface NamedEvent {
  readonly name: string;
  /** Its import from `application/processes/`. */
  readonly from: string;
  /** The payload field that keys the instance. */
  readonly key: string;
  /** The payload's required fields and their zod types, one a line. */
  readonly fields: readonly { readonly name: string; readonly type: string }[];
}

const composePath = "src/platform/compose-application.ts";
const migratePath = "src/platform/database/migrate.ts";

/**
 * Plans a process manager of a context: its declaration (`application/processes/<name>.process.ts`:
 * its state schema, a transition per event, a method per deadline), its spec driven with the test
 * clock (the starting event published and delivered, each deadline run by moving the clock and
 * running the jobs then due), and, when the platform has none yet, the process store's
 * composition (in memory without a database; on PostgreSQL, in the context's schema, the store of
 * the project's ORM: `PostgresProcessStore`, `DrizzleProcessStore` or `KnexProcessStore`, which
 * writes in the command's transaction of that ORM) and its migration line in `migrate.ts`.
 */
export async function planProcessManager(
  root: string,
  config: KitConfig,
  context: string,
  name: string,
  options: ProcessManagerOptions,
): Promise<FileWrite[]> {
  checkContext(config, context);
  checkPascal(name, "process manager name");
  if (options.startsOn === undefined) {
    throw new CliError("kit generate process-manager needs --starts-on <Event>");
  }
  const kebab = kebabOf(name);
  const dir = `src/contexts/${context}/application/processes`;
  if (existsSync(join(root, dir, `${kebab}.process.ts`))) {
    throw new CliError(`Process manager '${name}' exists already in context '${context}'`);
  }
  const deadlines = options.deadlines ?? [];
  checkNamedOnce(options.startsOn, options.handles ?? [], deadlines);
  const start = await findEvent(root, config, context, options.startsOn);
  const handled: NamedEvent[] = [];
  for (const event of options.handles ?? []) {
    handled.push(await findEvent(root, config, context, event));
  }
  const process: FileWrite = {
    path: `${dir}/${kebab}.process.ts`,
    contents: declarationFile(context, name, start, handled, deadlines),
    create: true,
  };
  const declared = inBuilderStyle(config)
    ? await builderDeclaration(root, context, name, [start, ...handled], process)
    : undefined;
  const files: FileWrite[] = [
    ...(declared === undefined ? [process] : [declared.file, declared.module]),
    {
      path: `${dir}/${kebab}.process.spec.ts`,
      contents: specFile(context, name, start, handled, deadlines),
      create: true,
    },
    ...await planProcessStore(root, context, ormOf(config)),
  ];
  return await withDerived(root, config, files);
}

/**
 * Refuses a deadline not named in camelCase, and an event or a deadline named twice (an event
 * starts or is handled, once).
 */
function checkNamedOnce(
  startsOn: string,
  handles: readonly string[],
  deadlines: readonly string[],
): void {
  for (const deadline of deadlines) {
    if (!/^[a-z][a-zA-Z0-9]*$/.test(deadline)) {
      throw new CliError(
        `Invalid deadline name '${deadline}': name it in camelCase (remind, releaseSlot)`,
      );
    }
  }
  const repeated = [startsOn, ...handles].find((e, i, all) => all.indexOf(e) !== i);
  if (repeated !== undefined) {
    throw new CliError(`'${repeated}' is named twice: an event starts or is handled, once`);
  }
  if (new Set(deadlines).size !== deadlines.length) {
    throw new CliError("A deadline is named twice: name each once");
  }
}

/**
 * The builder style: no decorator, `builder.processManager(..)` with its options in the module
 * file, which imports what they name (the events, `onEvent`, the state's schema).
 */
async function builderDeclaration(
  root: string,
  context: string,
  name: string,
  events: readonly NamedEvent[],
  process: FileWrite,
): Promise<{ file: FileWrite; module: FileWrite }> {
  return await builderWrites(root, context, {
    path: process.path,
    text: process.contents,
    className: name,
    decorator: "ProcessManager",
    from: "@kit/kernel/process",
    unused: ["onEvent"],
    importsOfFile: [
      { name: `${name}State`, from: `./${kebabOf(name)}.process.ts` },
      ...events.map((event) => ({ name: event.name, from: event.from })),
    ],
    imports: ['import { onEvent } from "@kit/kernel/process";'],
    call: (builder, deps, args) =>
      `${builder}.processManager(${name}, ${args.trim()}${
        deps === "" ? "" : `, ${optionsOf(deps)}`
      });`,
  });
}

/** The event named, in the context's published language or in another's (consumed). */
async function findEvent(
  root: string,
  config: KitConfig,
  context: string,
  event: string,
): Promise<NamedEvent> {
  checkPascal(event, "event name");
  const kebab = kebabOf(event);
  const publishers = [context, ...config.contexts.map((c) => c.name).filter((c) => c !== context)];
  const publisher = publishers.find((c) =>
    existsSync(join(root, "src/contexts", c, "published-language", `${kebab}.event.ts`))
  );
  if (publisher === undefined) {
    throw new CliError(
      `Unknown event '${event}': ${
        didYouMean(event, config.contexts.flatMap((c) => eventsOf(root, c.name))) ??
          `generate it first with 'kit generate integration-event ${context} ${event}'`
      }`,
    );
  }
  const file = join(root, "src/contexts", publisher, "published-language", `${kebab}.event.ts`);
  const fields = payloadFields(await readFile(file, "utf8"));
  const strings = fields.filter((f) => /^z\.(string\(\)|uuid\()/.test(f.type));
  const key = strings.find((f) => f.name === "id" || f.name.endsWith("Id")) ?? strings[0];
  if (key === undefined) {
    throw new CliError(
      `Event '${event}' carries no text field to key an instance with (an id): add one to its payload`,
    );
  }
  return {
    name: event,
    from: publisher === context
      ? `../../published-language/${kebab}.event.ts`
      : `../../../${publisher}/published-language/${kebab}.event.ts`,
    key: key.name,
    fields,
  };
}

/** The required fields of a declaration's `payload: z.object({ ... })`, one a line. */
function payloadFields(declaration: string): { name: string; type: string }[] {
  const body = /payload:\s*z\.object\(\{([\s\S]*?)\n\s*\}\)/.exec(declaration)?.[1] ?? "";
  const fields: { name: string; type: string }[] = [];
  for (const line of body.split("\n")) {
    const field = /^\s*([A-Za-z_$][\w$]*)\s*:\s*(z\..*?),?\s*$/.exec(line);
    if (field === null || /\.(optional|nullish)\(\)|\.default\(/.test(field[2]!)) continue;
    fields.push({ name: field[1]!, type: field[2]! });
  }
  return fields;
}

/** `AppointmentBooked` -> `onAppointmentBooked`: the transition of an event. */
function transitionOf(event: string): string {
  return `on${event}`;
}

function declarationFile(
  context: string,
  name: string,
  start: NamedEvent,
  handled: readonly NamedEvent[],
  deadlines: readonly string[],
): string {
  const requests = deadlines.map((d, i) =>
    `    process.requestDeadline("${d}", new Date(process.now.getTime() + ${i + 1} * day));`
  );
  return generatorTemplate("process-manager/process.ts", {
    ...declarationImports(start, handled, deadlines),
    name,
    deadlineType: deadlines.length === 0 ? "never" : deadlines.map((d) => `"${d}"`).join(" | "),
    day: deadlines.length === 0 ? "" : "\nconst day = 24 * 3_600_000;\n",
    processName: `${context}.${kebabOf(name)}`,
    startEvent: start.name,
    handling: handled.length === 0 ? "" : `, handling ${handled.map((e) => e.name).join(", ")}`,
    deadlinesDoc: deadlines.length === 0
      ? ""
      : `.\n * Its deadlines (${deadlines.join(", ")}) run as background jobs`,
    startKey: start.key,
    startTransition: transitionOf(start.name),
    handles: handlesOption(handled),
    deadlinesOption: deadlines.length === 0 ? "" : `
  deadlines: { ${deadlines.map((d) => `${d}: "${d}"`).join(", ")} },`,
    requestsDoc: deadlines.length === 0 ? "" : " and requests its deadlines",
    startPayload: payloadOf(start),
    processParameter: deadlines.length === 0 ? "_process" : "process",
    requests: requests.join("\n"),
    requestsEnd: requests.length === 0 ? "" : "\n",
    ...transitions(name, handled, deadlines),
  });
}

/** `Parameters<typeof AppointmentBooked.create>[0]`: an event's payload type. */
function payloadOf(event: NamedEvent): string {
  return `Parameters<typeof ${event.name}.create>[0]`;
}

/** What a declaration imports of `@kit/kernel/process` and of its events. */
function declarationImports(
  start: NamedEvent,
  handled: readonly NamedEvent[],
  deadlines: readonly string[],
): { processImports: string; eventImports: string } {
  const events = [start, ...handled];
  const imports = [...new Set(events.map((e) => `import { ${e.name} } from "${e.from}";`))].sort();
  const processNames = [
    "onEvent",
    ...(deadlines.length > 0 ? ["type ProcessCompletion"] : []),
    "type ProcessContext",
    ...(deadlines.length > 0 ? ["type ProcessDeadline"] : []),
    "ProcessManager",
  ];
  return { processImports: processNames.join(",\n  "), eventImports: imports.join("\n") };
}

/** The `handles` option: each handled event keyed and sent to its transition. */
function handlesOption(handled: readonly NamedEvent[]): string {
  return handled.length === 0 ? "" : `
  handles: [
${
    handled.map((e) =>
      `    onEvent(${e.name}, { key: (p) => p.${e.key}, transition: "${transitionOf(e.name)}" }),`
    ).join("\n")
  }
  ],`;
}

/** A transition per handled event and a method per deadline (the last one completes). */
function transitions(
  name: string,
  handled: readonly NamedEvent[],
  deadlines: readonly string[],
): { handledTransitions: string; deadlineTransitions: string } {
  return {
    handledTransitions: handled.map((e) =>
      generatorTemplate("process-manager/handled-transition.part.ts", {
        event: e.name,
        transition: transitionOf(e.name),
        name,
        payload: payloadOf(e),
      })
    ).join(""),
    deadlineTransitions: deadlines.map((d, i) =>
      i === deadlines.length - 1
        ? generatorTemplate("process-manager/last-deadline.part.ts", { deadline: d, name })
        : generatorTemplate("process-manager/deadline.part.ts", { deadline: d, name })
    ).join(""),
  };
}

/** A sample payload of an event, its key field given the value `key`. */
function sample(event: NamedEvent, key: string): string {
  return `{ ${
    event.fields.map((f) =>
      `${f.name}: ${f.name === event.key ? key : sampleValue(f.name, f.type)}`
    )
      .join(", ")
  } }`;
}

function specFile(
  context: string,
  name: string,
  start: NamedEvent,
  handled: readonly NamedEvent[],
  deadlines: readonly string[],
): string {
  const camel = camelOf(context);
  const keyField = start.fields.find((f) => f.name === start.key)!;
  const key = sampleValue(keyField.name, keyField.type);
  const events = [start, ...handled.slice(0, 1)];
  const imports = [...new Set(events.map((e) => `import { ${e.name} } from "${e.from}";`))].sort();
  const first = handled[0];
  const steps = deadlines.map((d, i) =>
    i === deadlines.length - 1
      ? generatorTemplate("process-manager/last-deadline.spec.part.ts", {
        deadline: d,
        days: String(i + 1),
      })
      : generatorTemplate("process-manager/deadline.spec.part.ts", {
        deadline: d,
        days: String(i + 1),
      })
  ).join("\n");
  return generatorTemplate("process-manager/process.spec.ts", {
    eventImports: imports.join("\n"),
    camel,
    context,
    name,
    kebab: kebabOf(name),
    day: deadlines.length === 0 ? "" : "\nconst day = 24 * 3_600_000;",
    startEvent: start.name,
    runsDeadlines: deadlines.length === 0 ? "" : ` and runs its deadlines with the test clock`,
    key,
    startPayload: sample(start, key),
    deadlineChecks: deadlines.length === 0
      ? ""
      : generatorTemplate("process-manager/deadlines.spec.part.ts", {
        deadlines: JSON.stringify([...deadlines].sort()),
        startEvent: start.name,
      }),
    handledCheck: first === undefined
      ? ""
      : generatorTemplate("process-manager/handled.spec.part.ts", {
        event: first.name,
        payload: sample(first, key),
      }),
    steps,
  });
}

/**
 * The process store's composition, when the platform has none yet: a registration of the
 * context in the platform's repositories (in memory, and on PostgreSQL in its schema: on
 * postgres.js \`PostgresProcessStore\` among the PostgreSQL repositories, on Drizzle or Knex the
 * ORM's store among the ORM's repositories, built on its database), and \`migrateProcesses\` in
 * \`migrate.ts\` (every ORM's project migrates on the platform's postgres.js client). Nothing once
 * the platform has one.
 */
async function planProcessStore(root: string, context: string, orm: Orm): Promise<FileWrite[]> {
  const composeFile = join(root, composePath);
  if (!existsSync(composeFile)) return [];
  const compose = await readFile(composeFile, "utf8");
  if (compose.includes("ProcessStore")) return [];
  const schema = context.replaceAll("-", "_");
  const registration = `${camelOf(context)}ProcessStore`;
  const template = orm === "postgres"
    ? "process-manager/process-store.ts"
    : `process-manager/process-store.${orm}.ts`;
  const writes: FileWrite[] = [
    {
      path: `src/contexts/${context}/infrastructure/process-store.ts`,
      create: true,
      contents: generatorTemplate(template, { registration, schema }),
    },
    { path: composePath, contents: withProcessStore(compose, context, orm, registration) },
  ];
  const migrate = await migrateWithProcesses(root, schema);
  return migrate === undefined ? writes : [...writes, migrate];
}

/** The platform's composition with the context's process store registered. */
function withProcessStore(
  compose: string,
  context: string,
  orm: Orm,
  registration: string,
): string {
  const onStore = `${registration}On${pascalOf(orm)}`;
  const add = (region: string, ...entries: string[]) => {
    compose = updateRegion(
      compose,
      region,
      [...readRegion(compose, region, composePath), ...entries],
      composePath,
    );
  };
  add(
    "provider-imports",
    `import { ${registration}, ${onStore} } from "../contexts/${context}/infrastructure/process-store.ts";`,
  );
  add("memory-repositories", `${registration},`);
  add(orm === "postgres" ? "postgres-repositories" : "orm-repositories", `${onStore},`);
  return compose;
}

/** `migrate.ts` running `migrateProcesses` in the context's schema, unless it does already. */
async function migrateWithProcesses(root: string, schema: string): Promise<FileWrite | undefined> {
  const migrateFile = join(root, migratePath);
  if (!existsSync(migrateFile)) return undefined;
  const migrate = await readFile(migrateFile, "utf8");
  if (migrate.includes("migrateProcesses")) return undefined;
  return {
    path: migratePath,
    contents: migrate
      .replace(
        'import { migrateKernel } from "@kit/kernel/postgres";',
        'import { migrateKernel, migrateProcesses } from "@kit/kernel/postgres";',
      )
      .replace(
        "  await migrateDatabase(sql, options);",
        `  // The process managers' instances and the messages they handled.\n  await migrateProcesses(sql, { schema: "${schema}" });\n  await migrateDatabase(sql, options);`,
      ),
  };
}
