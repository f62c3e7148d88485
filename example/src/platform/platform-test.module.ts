import {
  accessPolicy,
  composeApplication,
  eventsPlugin,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  type Module,
  type RoleGrants,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { InMemoryJobStore, jobsPlugin } from "@kit/jobs";
import postgres from "postgres";
import { signToken, type TokenClaims } from "./auth/tokens.ts";
import { composePlatform } from "./compose-application.ts";
import { readConfig } from "./config.ts";
import type { Database } from "./database/database.ts";
import { migrate } from "./database/migrate.ts";
import { swaggerUiAssets } from "./http/api-docs.ts";

/** An application for specs of one context: the modules given, in-memory events and jobs. */
export function testApplication(
  modules: readonly Module[],
  options: { grants?: RoleGrants; clock?: TestClock } = {},
) {
  return composeApplication({
    modules,
    clock: options.clock ?? new TestClock(),
    accessPolicy: accessPolicy({ grants: options.grants ?? {} }),
    plugins: {
      events: eventsPlugin({
        outbox: new InMemoryOutbox(),
        processedEvents: new InMemoryProcessedEvents(),
        start: false,
      }),
      backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }),
    },
  });
}

/** A database of its own for one test, migrated, dropped afterwards. */
export interface TestDatabase {
  readonly sql: Database;
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * Creates a database with a random name next to `DATABASE_URL`'s and migrates it, so that test
 * files never share rows (each context keeps its own schema in it, as in production).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = Deno.env.get("DATABASE_URL");
  if (!base) throw new Error("DATABASE_URL is not set: the example's tests need PostgreSQL");
  const name = `example_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const sql = postgres(url.href, { max: 8, onnotice: () => {} });
  await migrate(sql);
  return {
    sql,
    url: url.href,
    async drop() {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** The secret of the tokens tests sign. */
export const testJwtSecret: Uint8Array = new TextEncoder().encode(
  "test-secret-of-the-scheduling-example-0123456789",
);

/** The running application of an end-to-end test: served on loopback, on its own database. */
export interface RunningTestPlatform {
  /** The address it answers on (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Its test clock (tokens and bookings are judged by it). */
  readonly clock: TestClock;
  /** Its database. */
  readonly db: TestDatabase;
  /** The composed application (its job queue, to run due jobs in a test). */
  readonly application: ReturnType<typeof composePlatform>;
  /** The guard refusals so far, as `<guard> <route>` (the pipeline's `onGuardRefusal`). */
  readonly refusals: string[];
  /** A bearer token for the claims given, valid at the clock's time. */
  token(claims: TokenClaims): Promise<string>;
  /** Stops the server and the application, and drops the database. */
  close(): Promise<void>;
}

/**
 * Starts the whole application for end-to-end tests: migrated database, `Deno.serve` on a free
 * loopback port, a test clock (set at `now`), the worker off (tests run due jobs themselves).
 */
export async function startTestPlatform(
  options: { now?: string } = {},
): Promise<RunningTestPlatform> {
  const db = await createTestDatabase();
  const clock = new TestClock(options.now ?? "2026-03-02T08:00:00Z");
  const refusals: string[] = [];
  const application = composePlatform({
    sql: db.sql,
    jwtSecret: testJwtSecret,
    docs: swaggerUiAssets,
    clock,
    undeclaredErrors: "refuse",
    onGuardRefusal: (refusal) => refusals.push(`${refusal.guard} ${refusal.route}`),
  });
  await application.start();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    application.http.fetch,
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    clock,
    db,
    application,
    refusals,
    token: (claims) => signToken(testJwtSecret, claims, readConfig({}), clock.now()),
    async close() {
      application.jobsDashboard.close();
      await server.shutdown();
      await application.stop();
      await db.drop();
    },
  };
}
