import {
  accessPolicy,
  type Clock,
  composeApplication,
  eventsPlugin,
  InMemoryIdempotencyStore,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  type Logger,
  type Module,
} from "@kit/kernel";
import { ProcessStore } from "@kit/kernel/process";
import {
  PostgresIdempotencyStore,
  PostgresOutbox,
  PostgresProcessedEvents,
  PostgresTransactions,
} from "@kit/kernel/postgres";
import {
  type GuardRefusal,
  httpPlugin,
  jwtAuthenticator,
  type SwaggerUiAssets,
  type UndeclaredErrors,
} from "@kit/http";
import {
  ContextRoutedJobStore,
  InMemoryJobStore,
  jobsPlugin,
  type JobStore,
  type WorkerIdentity,
} from "@kit/jobs";
import { jobsDashboard } from "@kit/jobs/dashboard";
import { PostgresJobStore } from "@kit/jobs/postgres";
import { grants } from "./auth/role.ts";
import { readConfig } from "./config.ts";
import { connectDatabase, Database } from "./database/database.ts";
import { functionRoutes } from "./function-routes.ts";
import { statusByCode } from "./status-by-code.ts";
import { schedulingProcessStore } from "../contexts/scheduling/infrastructure/process-store.ts";
// kit:begin module-imports
import { analyticsModule } from "../contexts/analytics/analytics.module.ts";
import { availabilityModule } from "../contexts/availability/availability.module.ts";
import { identityModule } from "../contexts/identity/identity.module.ts";
import { notificationsModule } from "../contexts/notifications/notifications.module.ts";
import { schedulingModule } from "../contexts/scheduling/scheduling.module.ts";
// kit:end

/** Every context's module, sorted by context. */
export const modules: readonly Module[] = [
  // kit:begin modules
  analyticsModule,
  availabilityModule,
  identityModule,
  notificationsModule,
  schedulingModule,
  // kit:end
];

/** What the platform is composed with. */
export interface PlatformOptions {
  /**
   * The database (migrated with `migrate`). Without it, the outbox and the jobs are in memory
   * and the contexts' repositories are given a client of no database, which never connects: what
   * reads only the declarations works (the documents of `docs:generate`), a command or query
   * fails.
   */
  readonly sql?: Database;
  /** The secret the HS256 bearer tokens are signed with (default: a random one, no token passes). */
  readonly jwtSecret?: Uint8Array;
  /** The issuer (`iss`) of the tokens accepted (default: `<project>-identity`). */
  readonly tokenIssuer?: string;
  /** The audience (`aud`) of the tokens accepted (default: `<project>-api`). */
  readonly tokenAudience?: string;
  /**
   * Swagger UI's files, to serve the API docs page at `/docs` (`swaggerUiAssets` of
   * `http/api-docs.ts`, which reads them from npm's `swagger-ui-dist`); without them, no docs page.
   */
  readonly docs?: () => Promise<SwaggerUiAssets>;
  /** The clock (default: the system clock; tests pass a test clock). */
  readonly clock?: Clock;
  /**
   * Where log lines go (default: kit's, a summarising text logger on the console); the processes
   * pass `platformLogger(config)`, which follows `LOG_FORMAT` and `LOG_LEVEL`.
   */
  readonly logger?: Logger;
  /** Whether this process runs the worker (`jobs: { start: true }`); otherwise it only enqueues. */
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
   * Whether idle workers are woken by LISTEN/NOTIFY (default); off for a database serving one
   * connection (the embedded dev database), where they poll every second.
   */
  readonly listen?: boolean;
  /** Called on each guard refusal (the access log; tests record them). */
  readonly onGuardRefusal?: (refusal: GuardRefusal) => void;
  /**
   * The job store, when not this database's (`RedisJobStore` when `REDIS_URL` is set); on the
   * database, each context's jobs are in its own schema (`contextJobStore`).
   */
  readonly jobStore?: JobStore;
  /**
   * What an answer with an error code its route does not declare does: `report` it (the default,
   * in production: answered and reported), or `refuse` it (specs: answered 500, so a spec meets it).
   */
  readonly undeclaredErrors?: UndeclaredErrors;
}

/**
 * Composes the application: every context's module on PostgreSQL (one unit of work per command,
 * the outbox and the jobs in its transaction, each context's jobs in its own schema), the HTTP pipeline with the JWT authenticator,
 * and the worker when asked. The tenant of a request is named by the `x-tenant-id` header. The
 * OpenAPI document is served at `/openapi.json`, the API docs page at `/docs` when given its
 * assets (`docs`). The jobs dashboard is mounted at `/ops/jobs` (the `operator` role reads and
 * acts on the jobs of its practice, and reads the outbox's backlog of its practice's events);
 * `jobsDashboard.close()` ends its event streams before the server shuts down.
 */
export function composePlatform(options: PlatformOptions = {}) {
  const { sql } = options;
  const defaults = readConfig({});
  const jobStore = options.jobStore ??
    (sql ? contextJobStore(sql, { listen: options.listen ?? true }) : new InMemoryJobStore());
  const outbox = sql ? new PostgresOutbox(sql) : new InMemoryOutbox();
  // The application's one process store: every context's process managers keep their instances in it.
  const processes = schedulingProcessStore(sql);
  const dashboard = jobsDashboard({ prefix: "/ops/jobs", store: jobStore, outbox, processes });
  const application = composeApplication({
    modules: [...modules, dashboard.module],
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(sql ? { transactions: new PostgresTransactions(sql) } : {}),
    accessPolicy: accessPolicy({ grants }),
    providers: [
      { provide: Database, provider: { useValue: sql ?? noDatabase() } },
      { provide: ProcessStore, provider: { useValue: processes } },
    ],
    plugins: {
      events: eventsPlugin({
        outbox,
        processedEvents: sql ? new PostgresProcessedEvents() : new InMemoryProcessedEvents(),
        start: options.startEvents ?? false,
        ...(options.outboxLeaseMs === undefined ? {} : { leaseMs: options.outboxLeaseMs }),
      }),
      backgroundJobs: jobsPlugin({
        store: jobStore,
        start: options.startJobs ?? false,
        concurrency: { scheduling: 2 },
        ...(options.worker ? { worker: options.worker } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      }),
      http: httpPlugin({
        idempotency: {
          store: sql ? new PostgresIdempotencyStore(sql) : new InMemoryIdempotencyStore(),
        },
        authenticators: [
          jwtAuthenticator({
            key: options.jwtSecret ?? crypto.getRandomValues(new Uint8Array(32)),
            algorithms: ["HS256"],
            issuer: options.tokenIssuer ?? defaults.tokenIssuer,
            audience: options.tokenAudience ?? defaults.tokenAudience,
            ...(options.clock ? { clock: options.clock } : {}),
          }),
        ],
        tenantHeader: "x-tenant-id",
        statusByCode,
        undeclaredErrors: options.undeclaredErrors ?? "report",
        routes: [...functionRoutes, ...dashboard.routes],
        ...(options.onGuardRefusal ? { onGuardRefusal: options.onGuardRefusal } : {}),
        info: {
          title: "Scheduling API",
          version: "1.0.0",
          description: "The example application of kit: calendars, appointments, availability.",
          license: { name: "MIT", identifier: "MIT" },
        },
        servers: [{ url: "/", description: "The server that serves this document" }],
        openapi: { path: "/openapi.json" },
        ...(options.docs ? { docs: { path: "/docs", assets: options.docs } } : {}),
        security: ["bearer"],
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        },
      }),
    },
  });
  return Object.assign(application, { jobsDashboard: dashboard });
}

/**
 * The jobs of each context in its own schema, `<context>.background_jobs` (migrated by `migrate`
 * with the context's schema): a context's use case enqueues its jobs in its transaction, in its
 * schema; the worker claims each context's queue from its schema; the jobs dashboard reads every
 * schema's. The registry of live workers is kept in the first context's schema.
 */
function contextJobStore(
  sql: Database,
  options: { listen: boolean },
): ContextRoutedJobStore {
  return new ContextRoutedJobStore({
    stores: Object.fromEntries(
      modules.map((module) => [
        module.name,
        new PostgresJobStore(sql, { schema: contextSchema(module.name), listen: options.listen }),
      ]),
    ),
  });
}

/** The database schema of a context: its name, `_` for `-` (as `migrate` names it). */
function contextSchema(context: string): string {
  return context.replaceAll("-", "_");
}

/** A client of no database: it never connects unless queried, and then fails at once. */
function noDatabase(): Database {
  return connectDatabase("postgres://none@127.0.0.1:1/none", { max: 1 });
}
