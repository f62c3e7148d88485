import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { withDerived } from "../commands/docs.ts";
import type { FileWrite } from "../files/file_plan.ts";
import { readRegion, updateRegion } from "../files/marker_regions.ts";
import { camelOf, checkPascal, kebabOf, type KitConfig } from "../project/kit_config.ts";
import { checkContext } from "./generate_simple.ts";
import { didYouMean, eventsOf } from "./close_names.ts";
import { sampleValue } from "./generate_events.ts";

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
 * composition (in memory without a database, `PostgresProcessStore` in the context's schema on
 * PostgreSQL) and its migration line in `migrate.ts`.
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
  for (const deadline of deadlines) {
    if (!/^[a-z][a-zA-Z0-9]*$/.test(deadline)) {
      throw new CliError(
        `Invalid deadline name '${deadline}': name it in camelCase (remind, releaseSlot)`,
      );
    }
  }
  const repeated = [options.startsOn, ...(options.handles ?? [])].find((e, i, all) =>
    all.indexOf(e) !== i
  );
  if (repeated !== undefined) {
    throw new CliError(`'${repeated}' is named twice: an event starts or is handled, once`);
  }
  if (new Set(deadlines).size !== deadlines.length) {
    throw new CliError("A deadline is named twice: name each once");
  }
  const start = await findEvent(root, config, context, options.startsOn);
  const handled: NamedEvent[] = [];
  for (const event of options.handles ?? []) {
    handled.push(await findEvent(root, config, context, event));
  }
  const files: FileWrite[] = [
    {
      path: `${dir}/${kebab}.process.ts`,
      contents: declarationFile(context, name, start, handled, deadlines),
      create: true,
    },
    {
      path: `${dir}/${kebab}.process.spec.ts`,
      contents: specFile(context, name, start, handled, deadlines),
      create: true,
    },
    ...await planProcessStore(root, context),
  ];
  return await withDerived(root, config, files);
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
  const processName = `${context}.${kebabOf(name)}`;
  const events = [start, ...handled];
  const imports = [...new Set(events.map((e) => `import { ${e.name} } from "${e.from}";`))].sort();
  const processNames = [
    "onEvent",
    ...(deadlines.length > 0 ? ["type ProcessCompletion"] : []),
    "type ProcessContext",
    ...(deadlines.length > 0 ? ["type ProcessDeadline"] : []),
    "ProcessManager",
  ];
  const deadlineType = deadlines.length === 0
    ? "never"
    : deadlines.map((d) => `"${d}"`).join(" | ");
  const payloadOf = (event: NamedEvent) => `Parameters<typeof ${event.name}.create>[0]`;
  const requests = deadlines.map((d, i) =>
    `    process.requestDeadline("${d}", new Date(process.now.getTime() + ${i + 1} * day));`
  );
  return `import { z } from "zod";
import type { IntegrationEvent } from "@kit/kernel";
import {
  ${processNames.join(",\n  ")},
} from "@kit/kernel/process";
${imports.join("\n")}

/** The state of one ${name} instance, validated on every load (stored as JSON). */
export const ${name}State = z.object({
  // TODO(domain): what the process remembers between its steps.
  key: z.string(),
  /** The last event or deadline the instance handled. */
  last: z.string(),
});

/** The state of one ${name} instance. */
export type ${name}State = z.infer<typeof ${name}State>;

/** The deadlines ${name} may request. */
type Deadlines = ${deadlineType};
${deadlines.length === 0 ? "" : "\nconst day = 24 * 3_600_000;\n"}
/**
 * ${processName}: started by ${start.name}${
    handled.length === 0 ? "" : `, handling ${handled.map((e) => e.name).join(", ")}`
  }${
    deadlines.length === 0
      ? ""
      : `.\n * Its deadlines (${deadlines.join(", ")}) run as background jobs`
  }.
 * An instance per ${start.key} and tenant; each transition runs once per message, in its unit of
 * work (commands sent through the CommandBus join it).
 */
@ProcessManager({
  name: "${processName}",
  state: ${name}State,
  startsOn: [
    onEvent(${start.name}, { key: (p) => p.${start.key}, transition: "${
    transitionOf(start.name)
  }" }),
  ],${
    handled.length === 0 ? "" : `
  handles: [
${
      handled.map((e) =>
        `    onEvent(${e.name}, { key: (p) => p.${e.key}, transition: "${transitionOf(e.name)}" }),`
      ).join("\n")
    }
  ],`
  }${
    deadlines.length === 0 ? "" : `
  deadlines: { ${deadlines.map((d) => `${d}: "${d}"`).join(", ")} },`
  }
})
export class ${name} {
  /** The process's name: its instances, its deliveries and its deadline job (\`-deadline\`). */
  static readonly processName = "${processName}";

  /** Starts an instance${deadlines.length === 0 ? "" : " and requests its deadlines"}. */
  ${transitionOf(start.name)}(
    event: IntegrationEvent<${payloadOf(start)}>,
    ${deadlines.length === 0 ? "_process" : "process"}: ProcessContext<Deadlines>,
  ): Promise<${name}State> {
${requests.join("\n")}${
    requests.length === 0 ? "" : "\n"
  }    return Promise.resolve({ key: event.payload.${start.key}, last: "${start.name}" });
  }
${
    handled.map((e) => `
  /** TODO(domain): what ${e.name} changes (cancel a deadline, complete the instance). */
  ${transitionOf(e.name)}(
    state: ${name}State,
    _event: IntegrationEvent<${payloadOf(e)}>,
    _process: ProcessContext<Deadlines>,
  ): Promise<${name}State> {
    return Promise.resolve({ ...state, last: "${e.name}" });
  }
`).join("")
  }${
    deadlines.map((d, i) =>
      i === deadlines.length - 1
        ? `
  /** The last deadline: TODO(domain) its effect (a command), then the instance ends. */
  ${d}(
    _state: ${name}State,
    _deadline: ProcessDeadline,
    process: ProcessContext<Deadlines>,
  ): Promise<ProcessCompletion> {
    return Promise.resolve(process.complete());
  }
`
        : `
  /** TODO(domain): what happens when ${d} falls due (a command, a job of another context). */
  ${d}(
    state: ${name}State,
    _deadline: ProcessDeadline,
    _process: ProcessContext<Deadlines>,
  ): Promise<${name}State> {
    return Promise.resolve({ ...state, last: "${d}" });
  }
`
    ).join("")
  }}
`;
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
      ? `
  // ${d}: the clock moved to its time, its job runs the transition, which ends the instance.
  clock.set(new Date(t0.getTime() + ${i + 1} * day));
  await application.backgroundJobs.runDue();
  assert.equal((await instance())?.status, "completed");`
      : `
  // ${d}: the clock moved to its time, its job runs the transition.
  clock.set(new Date(t0.getTime() + ${i + 1} * day));
  await application.backgroundJobs.runDue();
  assert.equal((await state())?.last, "${d}");`
  ).join("\n");
  return `import assert from "node:assert/strict";
import { runInScope, systemActor, TransactionManager } from "@kit/kernel";
import { ProcessStore } from "@kit/kernel/process";
import { TestClock } from "@kit/kernel/testing";
import { testApplication } from "../../../../platform/platform-test.module.ts";
${imports.join("\n")}
import { ${camel}Module } from "../../${context}.module.ts";
import { ${name}, type ${name}State } from "./${kebabOf(name)}.process.ts";
${deadlines.length === 0 ? "" : "\nconst day = 24 * 3_600_000;"}
const t0 = new Date("2026-01-05T09:00:00.000Z");

Deno.test("${name} starts on ${start.name}${
    deadlines.length === 0 ? "" : ` and runs its deadlines with the test clock`
  }", async () => {
  const clock = new TestClock(t0);
  const application = testApplication([${camel}Module], { clock });
  const transactions = application.resolve(TransactionManager);
  const store = application.resolve(ProcessStore);
  const execution = { origin: "test", actor: systemActor, tenantId: "t1", correlationId: "spec" };
  // In a unit of work of the tenant, as a command's handler publishes.
  const inTenant = <T>(work: () => Promise<T>) =>
    transactions.run((unitOfWork) => runInScope({ execution, unitOfWork }, work));
  const instance = () =>
    transactions.run((unit) =>
      store.instanceLoad({ process: ${name}.processName, tenantId: "t1", key: ${key}, unit })
    );
  const state = async () => (await instance())?.state as ${name}State | undefined;

  await inTenant(() => application.events.publisher.publish(${start.name}, ${sample(start, key)}));
  await application.events.relay.deliverDue();
  const started = await instance();
  assert.equal(started?.status, "active", "${start.name} started an instance");
  assert.equal((await state())?.last, "${start.name}");${
    deadlines.length === 0 ? "" : `
  assert.deepEqual(Object.keys(started?.deadlines ?? {}).sort(), ${
      JSON.stringify([...deadlines].sort())
    });
  // Before its time a deadline does not run (the context's scheduled jobs may: their first tick).
  await application.backgroundJobs.runDue();
  assert.equal((await state())?.last, "${start.name}", "no deadline ran before its time");`
  }${
    first === undefined ? "" : `

  await inTenant(() => application.events.publisher.publish(${first.name}, ${sample(first, key)}));
  await application.events.relay.deliverDue();
  assert.equal((await state())?.last, "${first.name}", "${first.name} moved the instance");`
  }
${steps}
});
`;
}

/**
 * The process store's composition, when the platform has none yet: a registration of the
 * context (in memory, and \`PostgresProcessStore\` in its schema on PostgreSQL) in the platform's
 * repositories, and \`migrateProcesses\` in \`migrate.ts\`. Nothing once the platform has one.
 */
async function planProcessStore(root: string, context: string): Promise<FileWrite[]> {
  const composeFile = join(root, composePath);
  if (!existsSync(composeFile)) return [];
  let compose = await readFile(composeFile, "utf8");
  if (compose.includes("ProcessStore")) return [];
  const schema = context.replaceAll("-", "_");
  const registration = `${camelOf(context)}ProcessStore`;
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
    `import { ${registration}, ${registration}OnPostgres } from "../contexts/${context}/infrastructure/process-store.ts";`,
  );
  add("memory-repositories", `${registration},`);
  add("postgres-repositories", `${registration}OnPostgres,`);
  const writes: FileWrite[] = [
    {
      path: `src/contexts/${context}/infrastructure/process-store.ts`,
      create: true,
      contents: `import type postgres from "postgres";
import type { Registration } from "@kit/kernel";
import { InMemoryProcessStore, ProcessStore } from "@kit/kernel/process";
import { PostgresProcessStore } from "@kit/kernel/postgres";

/**
 * The process managers' instances in memory (development and specs): every context's process
 * managers share the platform's one store.
 */
export const ${registration}: Registration = {
  provide: ProcessStore,
  provider: { useFactory: () => new InMemoryProcessStore() },
};

/** The process managers' instances on PostgreSQL, in the ${schema} schema (\`migrateProcesses\`). */
export function ${registration}OnPostgres(sql: postgres.Sql): Registration {
  return {
    provide: ProcessStore,
    provider: { useValue: new PostgresProcessStore(sql, { schema: "${schema}" }) },
  };
}
`,
    },
    { path: composePath, contents: compose },
  ];
  const migrateFile = join(root, migratePath);
  if (existsSync(migrateFile)) {
    const migrate = await readFile(migrateFile, "utf8");
    if (!migrate.includes("migrateProcesses")) {
      writes.push({
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
      });
    }
  }
  return writes;
}
