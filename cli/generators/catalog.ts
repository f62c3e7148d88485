/** A kind of generator, as `kit generate --help --json` lists it. */
export interface GeneratorKind {
  /** The kind, as typed after `kit generate`. */
  readonly kind: string;
  /** What it writes. */
  readonly summary: string;
  /** Its options. */
  readonly options: readonly string[];
  /** Whether it writes files outside its context (shared files, changed one at a time). */
  readonly writesShared: boolean;
  /** The shared files it may write. */
  readonly sharedFiles: readonly string[];
  /**
   * The option that makes a kind which otherwise writes inside its context write `sharedFiles`
   * (`command --aggregate` on an aggregate with no repository yet).
   */
  readonly sharedWhen?: string;
  /** Whether this version of the CLI has it. */
  readonly available: boolean;
}

const platform = "src/platform/compose-application.ts";

/** Every kind the spec names, sorted. */
export const generatorKinds: readonly GeneratorKind[] = [
  {
    kind: "adapter",
    summary: "an adapter of a port, provided by the platform",
    options: ["--kind external", "--decorators"],
    writesShared: true,
    sharedFiles: [platform],
    available: true,
  },
  {
    kind: "adr",
    summary: "an architecture decision record",
    options: ["--deviation"],
    writesShared: true,
    sharedFiles: ["kit.config.json"],
    available: true,
  },
  {
    kind: "aggregate",
    summary: "an aggregate of the domain, with the snapshot its repository keeps",
    options: [],
    writesShared: false,
    sharedFiles: [],
    available: true,
  },
  {
    kind: "background-job",
    summary: "a background job sending a command",
    options: ["--command <UseCase>"],
    writesShared: true,
    sharedFiles: ["src/platform/job-settings.ts"],
    available: true,
  },
  {
    kind: "command",
    summary:
      "a command, its handler and its spec (with --aggregate: loaded and saved at its version through its repository, in the work's tenant; shared files written)",
    options: ["--permission <name>", "--aggregate <Aggregate>"],
    writesShared: false,
    sharedFiles: ["src/platform/database/migrations.ts", platform],
    sharedWhen: "--aggregate",
    available: true,
  },
  {
    kind: "context",
    summary: "a bounded context and its registration",
    options: ["--kind core|supporting|generic"],
    writesShared: true,
    sharedFiles: ["kit.config.json", platform, "docs/context-map.md", ".dependency-cruiser.cjs"],
    available: true,
  },
  {
    kind: "error-code",
    summary:
      "an error code of a context with the one HTTP status it answers, in its domain/<context>-errors.ts",
    options: ["--status <4xx>", "--description <text>"],
    writesShared: false,
    sharedFiles: [],
    available: true,
  },
  {
    kind: "gateway",
    summary: "a gateway to an upstream context (kit generate gateway <context> <upstream>)",
    options: [],
    writesShared: true,
    sharedFiles: ["kit.config.json", platform, "docs/context-map.md", ".dependency-cruiser.cjs"],
    available: true,
  },
  {
    kind: "integration-event",
    summary: "an integration event in the published language",
    options: [],
    writesShared: true,
    sharedFiles: ["src/platform/audit/audited-events.ts"],
    available: true,
  },
  {
    kind: "integration-handler",
    summary: "a consumer of an integration event",
    options: [],
    writesShared: false,
    sharedFiles: [],
    available: true,
  },
  {
    kind: "job",
    summary: "a scheduled job",
    options: ["--every <interval>", "--command <UseCase>", "--local-only"],
    writesShared: true,
    sharedFiles: ["src/platform/job-settings.ts"],
    available: true,
  },
  {
    kind: "policy",
    summary: "an explicit access policy of one permission",
    options: ["--permission <name>"],
    writesShared: true,
    sharedFiles: ["src/platform/auth/access-policies.ts", platform],
    available: true,
  },
  {
    kind: "port",
    summary: "a port of the application",
    options: [],
    writesShared: false,
    sharedFiles: [],
    available: true,
  },
  {
    kind: "query",
    summary: "a query, its handler and its spec",
    options: ["--permission <name>", "--search"],
    writesShared: false,
    sharedFiles: [],
    available: true,
  },
  {
    kind: "repository",
    summary:
      "a repository of an aggregate, tenant-aware and versioned (in memory and on PostgreSQL), registered with the platform, and its table in a new numbered migration",
    options: [],
    writesShared: true,
    sharedFiles: ["src/platform/database/migrations.ts", platform],
    available: true,
  },
  {
    kind: "route-group",
    summary: "a route group",
    options: ["--role <role>"],
    writesShared: true,
    sharedFiles: ["src/platform/auth/role.ts"],
    available: true,
  },
  {
    kind: "service",
    summary: "apps/<context>: a deployable service of one context",
    options: [],
    writesShared: true,
    sharedFiles: ["kit.config.json"],
    available: true,
  },
  {
    kind: "worker",
    summary: "apps/worker: the worker alone",
    options: [],
    writesShared: true,
    sharedFiles: ["kit.config.json"],
    available: true,
  },
];
