/**
 * A file outside its context that a generator writes, and when. `<context>`, `<name>` and
 * `<NNNN>` stand for what the arguments and the project make of them.
 */
export interface SharedWrite {
  /** The file, relative to the project's root. */
  readonly file: string;
  /** The option without which it is not written (absent: written without any option). */
  readonly option?: string;
  /** The case, in the project's state, in which it is written (absent: every time). */
  readonly when?: string;
  /**
   * Written only outside a worker's worktree (no `.kit/worker.json`), in the conductor's tree: a
   * derived document the conductor's `kit docs` rewrites after the merge. Inside a worktree the
   * kind never writes it, so the worker's hook does not count it.
   */
  readonly outsideWorktree?: true;
}

/** A kind of generator, as `kit generate --help --json` lists it. */
export interface GeneratorKind {
  /** The kind, as typed after `kit generate`. */
  readonly kind: string;
  /** What it writes. */
  readonly summary: string;
  /** Its arguments and options after `kit generate <kind>`. */
  readonly usage: string;
  /** A command line that runs it. */
  readonly example: string;
  /** Its options. */
  readonly options: readonly string[];
  /**
   * The lines a command's handler writes to use what the kind makes (to enqueue a job, to publish
   * an event), as in the example's handlers; `kit generate <kind> --help` prints them.
   */
  readonly inAHandler?: readonly string[];
  /**
   * Whether every run writes a file outside its context (`src/contexts/<context>/`): such a kind
   * changes shared files, one at a time, on the trunk.
   */
  readonly writesShared: boolean;
  /** Every file outside its context it can write (the `file` of each of `sharedWrites`). */
  readonly sharedFiles: readonly string[];
  /** The files outside its context it can write, each with the option and case that write it. */
  readonly sharedWrites: readonly SharedWrite[];
  /**
   * For a kind that otherwise writes only inside its context: the option with which it can write
   * `sharedFiles` (`command --aggregate` on an aggregate with no repository yet).
   */
  readonly sharedWhen?: string;
}

/** A kind as written below: its facts, the derived ones (`writesShared`...) added by `kind`. */
type KindFacts = Omit<GeneratorKind, "writesShared" | "sharedFiles" | "sharedWhen">;

function kind(facts: KindFacts): GeneratorKind {
  const conditional = facts.sharedWrites.filter((w) => w.option !== undefined);
  const writesShared = facts.sharedWrites.some((w) =>
    w.option === undefined && w.when === undefined
  );
  const sharedWhen = [...new Set(conditional.map((w) => w.option!))].join(", ");
  return {
    kind: facts.kind,
    summary: facts.summary,
    usage: facts.usage,
    example: facts.example,
    options: facts.options,
    ...(facts.inAHandler === undefined ? {} : { inAHandler: facts.inAHandler }),
    writesShared,
    sharedFiles: [...new Set(facts.sharedWrites.map((w) => w.file))],
    sharedWrites: facts.sharedWrites,
    ...(!writesShared && sharedWhen !== "" ? { sharedWhen } : {}),
  };
}

/**
 * The files outside its context a kind may write, given the options on its command line (`--role`
 * as `"--role"`): those it always writes, and those of the options given. What the pre-tool-use
 * hook refuses by, when it sees a command line but not the plan.
 */
export function sharedFilesGiven(kind: GeneratorKind, given: ReadonlySet<string>): string[] {
  return [
    ...new Set(
      kind.sharedWrites
        .filter((w) => !w.outsideWorktree)
        .filter((w) => w.option === undefined ? kind.writesShared : given.has(w.option))
        .map((w) => w.file),
    ),
  ];
}

/**
 * Whether `path` is a file `pattern` names: `<context>`, `<name>`, `<NNNN>` each stand for one
 * part of a path (`apps/<context>/main.ts` names `apps/scheduling/main.ts`).
 */
export function namesFile(pattern: string, path: string): boolean {
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/<[^>]+>/g, "[^/]+");
  return new RegExp(`^${source}$`).test(path);
}

const compose = "src/platform/compose-application.ts";
const config = "kit.config.json";
const contextMap = "docs/context-map.md";
const cruiser = ".dependency-cruiser.cjs";
const migrations = "src/platform/database/migrations.ts";
const grants = "src/platform/auth/role.ts";

/**
 * What a command or query writes outside its context: the repository of an aggregate that has
 * none (its migration, its registration), and the grant of its permission to a role.
 */
const messageWrites: readonly SharedWrite[] = [
  { file: migrations, option: "--aggregate", when: "the aggregate has no repository yet" },
  { file: compose, option: "--aggregate", when: "its repository is not registered yet" },
  { file: grants, option: "--grant" },
];

/**
 * How a command's handler enqueues a background job: the `JobQueue` injected, the call in the
 * command's unit of work (as the example's `RequestClearanceHandler` does).
 */
const enqueueLines: readonly string[] = [
  'import { Handles, type JobQueue } from "@kit/kernel";',
  'import { ClearCalendar } from "../../background/clear-calendar.job.ts";',
  "constructor(private readonly jobs: JobQueue) {}",
  "const { id } = await this.jobs.enqueue(ClearCalendar, { calendarId }, { subject: calendarId });",
  "(kept in the command's unit of work: a rollback leaves no job; options: delay, runAt,",
  "idempotencyKey, subject. kit generate command <context> <Name> --enqueues ClearCalendar writes",
  "these lines.)",
];

/** How a command's handler publishes an integration event of its context's published language. */
const publishLines: readonly string[] = [
  'import { type EventPublisher, Handles } from "@kit/kernel";',
  'import { AppointmentBooked } from "../../../published-language/appointment-booked.event.ts";',
  "constructor(private readonly events: EventPublisher) {}",
  "await this.events.publish(AppointmentBooked, { id: appointment.id });",
  "(kept in the outbox with the command's work, delivered once it commits; the payload is checked",
  "against the declaration. kit generate command <context> <Name> --publishes AppointmentBooked",
  "writes these lines.)",
];

/** Every kind the spec names, sorted. */
export const generatorKinds: readonly GeneratorKind[] = [
  kind({
    kind: "adapter",
    usage: "<context> <Port> [--kind external] [--decorators]",
    example: "kit generate adapter identity Directory --kind external --decorators",
    summary: "an adapter of a port, provided by the platform",
    options: ["--kind external", "--decorators"],
    sharedWrites: [{ file: compose }],
  }),
  kind({
    kind: "adr",
    usage: "<context> <Name> [--deviation]",
    example: "kit generate adr scheduling KeepSlotsInMemory",
    summary:
      "an architecture decision record of a context (src/contexts/<context>/docs/adr/), numbered after its last one",
    options: ["--deviation"],
    sharedWrites: [{ file: config, option: "--deviation" }],
  }),
  kind({
    kind: "aggregate",
    usage: "<context> <Name>",
    example: "kit generate aggregate scheduling Appointment",
    summary: "an aggregate of the domain, with the snapshot its repository keeps",
    options: [],
    sharedWrites: [],
  }),
  kind({
    kind: "background-job",
    usage: "<context> <Name> --command <UseCase>",
    example: "kit generate background-job scheduling ClearCalendar --command CancelAppointment",
    summary:
      "a background job sending a command (in the builder style, no decorator: declared in its context's module file with builder.backgroundJob)",
    options: ["--command <UseCase>"],
    inAHandler: enqueueLines,
    sharedWrites: [],
  }),
  kind({
    kind: "command",
    usage:
      "<context> <Name> [--permission <name> [--grant <role>]] [--aggregate <Aggregate> [--creates]] [--enqueues <Job>] [--publishes <Event>] [--update]",
    example:
      "kit generate command scheduling CancelAppointment --aggregate Appointment --permission appointment.cancel --publishes AppointmentCancelled",
    summary:
      "a command, its handler and its spec (with --aggregate: loaded and saved at its version through its repository, in the work's tenant, or added new with --creates; shared files written; with --enqueues or --publishes: its handler given the JobQueue or the EventPublisher and the call that enqueues the context's background job or publishes its event, in the command's unit of work; in the builder style, the handler has no decorator and its context's module file declares it with builder.handler). With --update, after its inputs changed: rewrites the part of its spec that makes it ('// kit:begin message under test') from them as they are now, and its route's parts when it has one (as route --update), keeping every other line",
    options: [
      "--permission <name>",
      "--grant <role>",
      "--aggregate <Aggregate>",
      "--creates",
      "--enqueues <Job>",
      "--publishes <Event>",
      "--update",
    ],
    inAHandler: [...enqueueLines, "", ...publishLines],
    sharedWrites: messageWrites,
  }),
  kind({
    kind: "context",
    usage: "<name> [--kind core|supporting|generic]",
    example: "kit generate context billing --kind supporting",
    summary: "a bounded context and its registration",
    options: ["--kind core|supporting|generic"],
    sharedWrites: [{ file: config }, { file: compose }, { file: contextMap }, { file: cruiser }],
  }),
  kind({
    kind: "error-code",
    usage: '<context> <CODE> --status <4xx> [--description "..."]',
    example:
      'kit generate error-code scheduling SLOT_TAKEN --status 409 --description "The slot is booked already"',
    summary:
      "an error code of a context with the one HTTP status it answers, in its domain/<context>-errors.ts",
    options: ["--status <4xx>", "--description <text>"],
    sharedWrites: [],
  }),
  kind({
    kind: "gateway",
    usage: "<context> <upstream-context>",
    example: "kit generate gateway scheduling identity",
    summary: "a gateway to an upstream context (kit generate gateway <context> <upstream>)",
    options: [],
    sharedWrites: [{ file: config }, { file: compose }, { file: contextMap }, { file: cruiser }],
  }),
  kind({
    kind: "integration-event",
    usage: "<context> <Event>",
    example: "kit generate integration-event scheduling AppointmentBooked",
    summary: "an integration event in the published language",
    options: [],
    inAHandler: publishLines,
    sharedWrites: [],
  }),
  kind({
    kind: "integration-handler",
    usage: "<context> <Event>",
    example: "kit generate integration-handler notifications AppointmentBooked",
    summary:
      "a consumer of an integration event (in the builder style, no decorator: declared in its context's module file with builder.eventHandler)",
    options: [],
    sharedWrites: [{
      file: "docs/context-map.md",
      when: "the edge from the upstream context, drawn in the conductor's tree",
      outsideWorktree: true,
    }],
  }),
  kind({
    kind: "job",
    usage: "<context> <Name> --every <interval> [--command <UseCase>]",
    example: "kit generate job scheduling SendReminders --every 1h --command SendReminders",
    summary:
      "a scheduled job (in the builder style, no decorator: declared in its context's module file with builder.scheduledJob)",
    options: ["--every <interval>", "--command <UseCase>", "--local-only"],
    sharedWrites: [],
  }),
  kind({
    kind: "policy",
    usage: "<context> <Name> --permission <name>",
    example: "kit generate policy scheduling OwnAppointments --permission appointment.cancel",
    summary: "an explicit access policy of one permission",
    options: ["--permission <name>"],
    sharedWrites: [
      { file: "src/platform/auth/access-policies.ts" },
      { file: compose, when: "the project's first policy" },
    ],
  }),
  kind({
    kind: "process-manager",
    usage: "<context> <Name> --starts-on <Event> [--handles <Event>]... [--deadline <name>]...",
    example:
      "kit generate process-manager scheduling AppointmentConfirmation --starts-on AppointmentBooked --handles AppointmentConfirmed --deadline remind --deadline release",
    summary:
      "a process manager (application/processes/): its state, a transition per event (of the context's published language or one it consumes), a method per deadline (a background job), and its spec driven with the test clock; the platform's process store composed (in memory, PostgresProcessStore, or DrizzleProcessStore or KnexProcessStore in a project on that ORM, in the context's schema on PostgreSQL, migrated) when it has none; in the builder style, no decorator: declared in its context's module file with builder.processManager",
    options: ["--starts-on <Event>", "--handles <Event>", "--deadline <name>"],
    sharedWrites: [
      { file: compose, when: "the platform has no process store yet" },
      { file: "src/platform/database/migrate.ts", when: "the platform has no process store yet" },
    ],
  }),
  kind({
    kind: "port",
    usage: "<context> <Name>",
    example: "kit generate port scheduling Calendar",
    summary: "a port of the application",
    options: [],
    sharedWrites: [],
  }),
  kind({
    kind: "query",
    usage:
      "<context> <Name> [--permission <name> [--grant <role>]] [--search] [--aggregate <Aggregate>] [--update]",
    example:
      "kit generate query scheduling ListAppointments --permission appointment.read --search --aggregate Appointment",
    summary:
      "a query, its handler and its spec (with --aggregate: the aggregate of an id, or a page of them with --search, through its repository; shared files written; in the builder style, the handler has no decorator and its context's module file declares it with builder.handler). With --update, as a command's",
    options: [
      "--permission <name>",
      "--grant <role>",
      "--search",
      "--aggregate <Aggregate>",
      "--update",
    ],
    sharedWrites: messageWrites,
  }),
  kind({
    kind: "rekey",
    usage: "<context> <Aggregate>",
    example: "kit generate rekey scheduling Appointment",
    summary:
      "for a repository generated before ids per tenant (its table keyed by id alone, which 'kit docs --check' names): the migration that re-keys its table by (tenant_id, id), every row kept, in a new numbered migration; its PostgreSQL adapter is yours to update in the same deploy (docs/operations/ids-per-tenant.md)",
    options: [],
    sharedWrites: [{ file: migrations }],
  }),
  kind({
    kind: "repository",
    usage: "<context> <Aggregate>",
    example: "kit generate repository scheduling Appointment",
    summary:
      "a repository of an aggregate, tenant-aware and versioned (in memory and on PostgreSQL), registered with the platform, and its table in a new numbered migration",
    options: [],
    sharedWrites: [{ file: migrations }, { file: compose }],
  }),
  kind({
    kind: "route",
    usage:
      "<context> <Command|Query> [--group <RouteGroup>] [--path </path>] [--function] [--update]",
    example: "kit generate route scheduling CancelAppointment --group AppointmentRoutes",
    summary:
      "the HTTP route of a command or query: a controller in a route group (schemas from the message's inputs, codes from its handler's refusals, 201/202/204/200 from what it does, the message's permission as x-permissions), or a defineRoute with --function, and a spec calling it over HTTP, checked against the OpenAPI document. With --update, after the message or its handler changed: rewrites the parts of the existing route and its spec that kit owns (between '// kit:begin route …' and '// kit:end': imports, schemas, the message a request sends, the request, answer and codes it declares, the spec's call), and the part of the message's own spec that makes the message ('// kit:begin message under test'), from them as they are now, keeping every other line (its group, path, summary, the class and its handler, the specs' tests). In the builder style a new route is a function route only (--function --path): a controller is declared by its decorator",
    options: ["--group <RouteGroup>", "--path </path>", "--function", "--update"],
    sharedWrites: [{ file: "src/platform/function-routes.ts", option: "--function" }],
  }),
  kind({
    kind: "route-group",
    usage: "<context> <Name> [--role <role>] [--prefix </path>]",
    example: "kit generate route-group scheduling Appointments --role patient",
    summary:
      "a route group (refused in the builder style: a route group is declared by its decorator, for controllers)",
    options: ["--role <role>", "--prefix </path>"],
    sharedWrites: [{
      file: "src/platform/auth/role.ts",
      option: "--role",
      when: "it names a role the platform does not grant yet",
    }],
  }),
  kind({
    kind: "service",
    usage: "<context>",
    example: "kit generate service scheduling",
    summary: "apps/<context>: a deployable service of one context",
    options: [],
    sharedWrites: [
      { file: "apps/<context>/service.ts" },
      { file: "apps/<context>/main.ts" },
      { file: "test/services/<context>.spec.ts" },
      { file: config },
    ],
  }),
  kind({
    kind: "worker",
    usage: "",
    example: "kit generate worker",
    summary: "apps/worker: the worker alone, and its task (deno task worker)",
    options: [],
    sharedWrites: [{ file: "apps/worker/main.ts" }, { file: "deno.json" }, {
      file: "apps/worker/main.node.ts",
      when: "the project has a Node entry point (src/main.node.ts)",
    }, { file: "kit.config.json" }],
  }),
];

/**
 * `kit generate <kind> --help`: the kind's usage, what it writes, the files outside its context
 * it may write (and with which option, in which case), and an example.
 */
export function kindHelp(kind: GeneratorKind): string {
  const shared = kind.sharedWrites.map((w) =>
    `  ${w.file}${w.option === undefined ? "" : ` (with ${w.option})`}${
      w.when === undefined ? "" : `, when ${w.when}`
    }`
  );
  return [
    `Usage: kit generate ${kind.kind}${kind.usage === "" ? "" : ` ${kind.usage}`} [--local-only]`,
    "",
    `Writes ${kind.summary}.`,
    "",
    "Files outside its context it may write (--local-only refuses a run that would):",
    ...(shared.length === 0 ? ["  none"] : shared),
    "",
    "Example:",
    `  ${kind.example}`,
    ...(kind.inAHandler === undefined
      ? []
      : ["", "In a command's handler:", ...kind.inAHandler.map((l) => l === "" ? "" : `  ${l}`)]),
  ].join("\n");
}
