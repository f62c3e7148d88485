import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../cli_error.ts";
import { kebabOf } from "../project/kit_config.ts";
import { didYouMean, eventsOf, jobsOf, orRun } from "./close_names.ts";

/** What a command's handler enqueues and publishes (`--enqueues <Job>`, `--publishes <Event>`). */
export interface Collaborators {
  /** A background job of the context the handler enqueues. */
  readonly enqueues?: string;
  /** An integration event of the context's published language the handler publishes. */
  readonly publishes?: string;
}

/** A payload field of a job or an event, and the value a generated call gives it. */
interface PayloadField {
  readonly name: string;
  readonly value: string;
}

/**
 * A command's handler that enqueues the job and publishes the event it is told to, in the
 * command's unit of work: the `JobQueue` and `EventPublisher` injected (`jobs`, `events`, found
 * by `kit docs` in the constructor for the context's dependencies), the job and the event
 * imported, and before the handler's answer the calls, each payload field given the command's
 * input of its name (`id`: the command's only `...Id` input) or a `TODO(domain)` value.
 * Refuses a job or an event the context does not declare, with the close names and the command
 * that makes it.
 */
export function withCollaborators(
  root: string,
  context: string,
  handler: string,
  inputs: readonly string[],
  collaborators: Collaborators,
): string {
  const { enqueues, publishes } = collaborators;
  if (enqueues === undefined && publishes === undefined) return handler;
  const added = [
    ...(enqueues === undefined ? [] : [enqueuedJob(root, context, enqueues, inputs)]),
    ...(publishes === undefined ? [] : [publishedEvent(root, context, publishes, inputs)]),
  ];
  let text = withKernelImports(handler, added.map((a) => a.kernel));
  text = text.replace(
    /^(import \{[^}]*\} from "@kit\/kernel";\n)/m,
    `$1${added.map((a) => a.import).join("\n")}\n`,
  );
  text = withParameters(text, added.map((a) => a.parameter));
  // The handler awaits its calls; a handler that answered at once now answers after them.
  text = text.replace(/^( {2})handle\(_?(\w+): /m, "$1async handle($2: ")
    .replace(/^ {4}return Promise\.resolve\(\);\n/m, "");
  // Before the handler's answer (its last statement), else at the end of handle, its last method.
  const end = text.lastIndexOf("\n  }\n}") + 1;
  const answer = text.lastIndexOf("\n    return ", end) + 1;
  const at = answer > 0 ? answer : end;
  return `${text.slice(0, at)}${added.flatMap((a) => a.lines).join("\n")}\n${text.slice(at)}`;
}

/** What a collaborator adds to a handler: an import of the kernel and its own, a parameter, calls. */
interface Collaboration {
  /** The name imported from `@kit/kernel`. */
  readonly kernel: string;
  readonly import: string;
  /** The constructor's parameter. */
  readonly parameter: string;
  /** The lines of `handle` that call it. */
  readonly lines: readonly string[];
}

/** `--enqueues <Job>`: the job, which must exist, enqueued through the injected `JobQueue`. */
function enqueuedJob(
  root: string,
  context: string,
  enqueues: string,
  inputs: readonly string[],
): Collaboration {
  const file = `src/contexts/${context}/application/background/${kebabOf(enqueues)}.job.ts`;
  if (!existsSync(join(root, file))) {
    throw new CliError(
      `Background job '${enqueues}' does not exist in context '${context}': ${
        orRun(didYouMean(enqueues, jobsOf(root, context)))
      }'kit generate background-job ${context} ${enqueues} --command <UseCase>' first`,
    );
  }
  const fields = jobPayload(readFileSync(join(root, file), "utf8"), enqueues, inputs);
  return {
    kernel: "type JobQueue",
    import: `import { ${enqueues} } from "../../background/${kebabOf(enqueues)}.job.ts";`,
    parameter: "private readonly jobs: JobQueue",
    lines: [
      "    // Enqueued in this command's unit of work: a rollback leaves no job.",
      `    await this.jobs.enqueue(${enqueues}, ${objectOf(fields)});`,
    ],
  };
}

/** `--publishes <Event>`: the event, which must exist, published through `EventPublisher`. */
function publishedEvent(
  root: string,
  context: string,
  publishes: string,
  inputs: readonly string[],
): Collaboration {
  const file = `src/contexts/${context}/published-language/${kebabOf(publishes)}.event.ts`;
  if (!existsSync(join(root, file))) {
    throw new CliError(
      `Event '${publishes}' does not exist in the published language of '${context}': ${
        orRun(didYouMean(publishes, eventsOf(root, context)))
      }'kit generate integration-event ${context} ${publishes}' first`,
    );
  }
  const fields = eventPayload(readFileSync(join(root, file), "utf8"), inputs);
  return {
    kernel: "type EventPublisher",
    import: `import { ${publishes} } from "../../../published-language/${
      kebabOf(publishes)
    }.event.ts";`,
    parameter: "private readonly events: EventPublisher",
    lines: [
      "    // Kept in the outbox with this command's work, delivered once it commits.",
      `    await this.events.publish(${publishes}, ${objectOf(fields)});`,
    ],
  };
}

/** The `@kit/kernel` import with the names added, sorted as `deno fmt` leaves them. */
function withKernelImports(text: string, names: readonly string[]): string {
  return text.replace(/^import \{([^}]*)\} from "@kit\/kernel";$/m, (_, list: string) => {
    const all = [...new Set([...list.split(",").map((n) => n.trim()).filter(Boolean), ...names])];
    const bare = (name: string) => name.replace(/^type /, "");
    all.sort((a, b) => bare(a).localeCompare(bare(b)));
    return `import { ${all.join(", ")} } from "@kit/kernel";`;
  });
}

/** The class's constructor with the parameters added (one made when it has none). */
function withParameters(text: string, parameters: readonly string[]): string {
  const existing = /^ {2}constructor\(([^)]*)\) \{\}$/m.exec(text);
  if (existing === null) {
    return text.replace(
      /^(export class \w+ \{\n)/m,
      `$1  constructor(\n${parameters.map((p) => `    ${p},`).join("\n")}\n  ) {}\n\n`,
    );
  }
  const all = [
    ...existing[1]!.split(",").map((p) => p.trim()).filter(Boolean),
    ...parameters,
  ];
  return text.replace(
    existing[0],
    `  constructor(\n${all.map((p) => `    ${p},`).join("\n")}\n  ) {}`,
  );
}

/** The payload fields of a generated background job (`export interface <Job>Payload`). */
function jobPayload(source: string, job: string, inputs: readonly string[]): PayloadField[] {
  const body = new RegExp(`export interface ${job}Payload \\{([^}]*)\\}`).exec(source)?.[1];
  if (body === undefined) return [];
  return [...body.matchAll(/readonly (\w+)\??: ([^;]+);/g)].map(([, name, type]) => ({
    name: name!,
    value: valueOf(name!, type!.trim(), inputs),
  }));
}

/** The payload fields of an event declared with `defineIntegrationEvent` (`name: z.type(...)`). */
function eventPayload(source: string, inputs: readonly string[]): PayloadField[] {
  const body = /payload: z\.object\(\{([\s\S]*?)\n {2}\}\)/.exec(source)?.[1] ?? "";
  return [...body.matchAll(/^\s+(\w+): z\.(\w+)\(/gm)].map(([, name, type]) => ({
    name: name!,
    value: valueOf(name!, type!, inputs),
  }));
}

/** The command's input of the field's name, else a value of its type marked `TODO(domain)`. */
function valueOf(name: string, type: string, inputs: readonly string[]): string {
  const ids = inputs.filter((input) => /Id$/.test(input));
  if (inputs.includes(name)) return `command.${name}`;
  if (name === "id" && ids.length === 1) return `command.${ids[0]}`;
  if (type === "number") return "0 /* TODO(domain) */";
  if (type === "boolean") return "false /* TODO(domain) */";
  return '"TODO(domain)"';
}

function objectOf(fields: readonly PayloadField[]): string {
  return fields.length === 0
    ? "{}"
    : `{ ${fields.map((f) => `${f.name}: ${f.value}`).join(", ")} }`;
}
