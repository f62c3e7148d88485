import {
  accessPolicy,
  type Clock,
  composeApplication,
  eventsPlugin,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  type Logger,
  type Module,
  type Registration,
} from "@kit/kernel";
// kit:variant persistence-imports
import {
  PostgresOutbox,
  PostgresProcessedEvents,
  PostgresTransactions,
} from "@kit/kernel/postgres";
// kit:variant end
import {
  httpPlugin,
  jwtAuthenticator,
  type SwaggerUiAssets,
  type UndeclaredErrors,
} from "@kit/http";
import { InMemoryJobStore, jobsPlugin, type JobStore, type WorkerIdentity } from "@kit/jobs";
import { grants } from "./auth/role.ts";
import { readConfig } from "./config.ts";
import { Database } from "./database/database.ts";
import { functionRoutes } from "./function-routes.ts";
import project from "../../kit.config.json" with { type: "json" };
// kit:begin provider-imports
// kit:end
// kit:begin policy-imports
// kit:end
// kit:begin module-imports
// kit:end

/** Every context's module, sorted by context. */
export const modules: readonly Module[] = [
  // kit:begin modules
  // kit:end
];

/** The platform's providers: gateways and adapters of the contexts' ports, sorted. */
export const providers: readonly Registration[] = [
  // kit:begin providers
  // kit:end
];

/** The repositories in memory, provided when the platform runs without a database, sorted. */
export const memoryRepositories: readonly Registration[] = [
  // kit:begin memory-repositories
  // kit:end
];

/** A repository on PostgreSQL: its registration, built on the platform's database. */
export type PostgresRepository = (sql: Database) => Registration;

/** The repositories on PostgreSQL, sorted. */
export const postgresRepositories: readonly PostgresRepository[] = [
  // kit:begin postgres-repositories
  // kit:end
];
// kit:variant orm-repositories
// kit:variant end

/** What the platform is composed with. */
export interface PlatformOptions {
  /** The modules composed (default: every context's); a service composes its own. */
  readonly modules?: readonly Module[];
  /**
   * The database, migrated (`migrate`): every context on PostgreSQL, one transaction per command
   * with the outbox in it. Without it, everything is in memory (development and specs).
   */
  readonly sql?: Database;
  // kit:variant orm-option
  // kit:variant end
  /** Where background jobs are kept (default: in memory, seen by this process only). */
  readonly jobStore?: JobStore;
  /** The secret HS256 bearer tokens are signed with (default: a random one, no token passes). */
  readonly jwtSecret?: Uint8Array;
  /** The issuer (`iss`) of the tokens accepted (default: `<project>-identity`). */
  readonly tokenIssuer?: string;
  /** The audience (`aud`) of the tokens accepted (default: `<project>-api`). */
  readonly tokenAudience?: string;
  /**
   * Swagger UI's files, to serve the API docs page at `/docs` (`swaggerUiAssets` of
   * `http/api-docs.ts`, npm's `swagger-ui-dist` imported as text: every entry point and the
   * specs give it); without them, no docs page.
   */
  readonly docs?: () => Promise<SwaggerUiAssets>;
  /** The clock (default: the system clock). */
  readonly clock?: Clock;
  /**
   * Where log lines go (default: kit's, a summarising text logger on the console); the processes
   * pass `platformLogger(config)`, which follows `LOG_FORMAT` and `LOG_LEVEL`.
   */
  readonly logger?: Logger;
  /** Whether this process runs the worker of background and scheduled jobs. */
  readonly startJobs?: boolean;
  /**
   * Who this process's worker is in the job store's registry of live workers (the entry point
   * gives its host and process id: `{ host: Deno.hostname(), pid: Deno.pid }`).
   */
  readonly worker?: WorkerIdentity;
  /** Whether this process relays the outbox to the event handlers. */
  readonly startEvents?: boolean;
  /**
   * How long the relay keeps the deliveries it claimed from the other processes' relays, in ms
   * (default 30 000; the processes pass `OUTBOX_LEASE`, see `config.ts`): a process that dies
   * leaves its claimed deliveries to the others once it ends.
   */
  readonly outboxLeaseMs?: number;
  /**
   * What an answer with an error code its route does not declare does: `report` it (the default,
   * in production: answered and reported), or `refuse` it (specs: reported and answered 500, so
   * that a spec meets it).
   */
  readonly undeclaredErrors?: UndeclaredErrors;
}

/**
 * Composes the application: the modules with the platform's providers, its repositories on
 * PostgreSQL (and the database's client, the `Database` token, for adapters) or in memory, its
 * access policy, events through the outbox, background jobs, and the
 * HTTP pipeline with the JWT authenticator (the tenant named by the `x-tenant-id` header),
 * serving its OpenAPI document at `/openapi.json` (YAML at `/openapi.yaml`) and the API docs
 * page at `/docs`.
 */
export function composePlatform(options: PlatformOptions = {}) {
  // kit:variant persistence
  const { sql } = options;
  // kit:variant end
  return composeApplication({
    modules: options.modules ?? modules,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    // kit:variant transactions
    ...(sql ? { transactions: new PostgresTransactions(sql) } : {}),
    // kit:variant end
    providers: [
      ...providers,
      ...(sql
        ? [
          { provide: Database, provider: { useValue: sql } },
          ...postgresRepositories.map((repository) => repository(sql)),
          // kit:variant repositories
          // kit:variant end
        ]
        : memoryRepositories),
    ],
    accessPolicy: accessPolicy({
      grants,
      // kit:begin access-policies
      // kit:end
    }),
    plugins: {
      events: eventsPlugin({
        // kit:variant outbox
        outbox: sql ? new PostgresOutbox(sql) : new InMemoryOutbox(),
        processedEvents: sql ? new PostgresProcessedEvents() : new InMemoryProcessedEvents(),
        // kit:variant end
        start: options.startEvents ?? false,
        ...(options.outboxLeaseMs === undefined ? {} : { leaseMs: options.outboxLeaseMs }),
      }),
      backgroundJobs: jobsPlugin({
        store: options.jobStore ?? new InMemoryJobStore(),
        start: options.startJobs ?? false,
        ...(options.worker ? { worker: options.worker } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      }),
      http: platformHttp(options),
    },
  });
}

/**
 * The platform's HTTP pipeline: bearer JWTs (HS256 with `jwtSecret`, the platform's issuer and
 * audience) with the tenant named by the `x-tenant-id` header, the OpenAPI document at
 * `/openapi.json` and the API docs page at `/docs`; the contexts' controllers and the function
 * routes of `function-routes.ts`. Specs compose it too
 * (`platform-test.module.ts`), so that their answers are the API's.
 */
export function platformHttp(
  options: Pick<
    PlatformOptions,
    "jwtSecret" | "tokenIssuer" | "tokenAudience" | "docs" | "clock" | "undeclaredErrors"
  > = {},
) {
  const defaults = readConfig({});
  return httpPlugin({
    authenticators: [
      jwtAuthenticator({
        key: options.jwtSecret ?? crypto.getRandomValues(new Uint8Array(32)),
        algorithms: ["HS256"],
        issuer: options.tokenIssuer ?? defaults.tokenIssuer,
        audience: options.tokenAudience ?? defaults.tokenAudience,
        ...(options.clock ? { clock: options.clock } : {}),
      }),
    ],
    routes: functionRoutes,
    tenantHeader: "x-tenant-id",
    undeclaredErrors: options.undeclaredErrors ?? "report",
    info: { title: `${project.name} API`, version: "1.0.0" },
    servers: [{ url: "/", description: "The server that serves this document" }],
    openapi: { path: "/openapi.json" },
    ...(options.docs ? { docs: { path: "/docs", assets: options.docs } } : {}),
    security: ["bearer"],
    securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
  });
}
