import { consoleLogger, type HealthCheck, type Logger } from "@kit/kernel";
import { observePostgresPool, postgresHealthCheck } from "@kit/kernel/postgres";
import type { JobStore } from "@kit/jobs";
import { type PlatformConfig, tokenSecret } from "./config.ts";
import { connectDatabase, connectForMigrations, type Database } from "./database/database.ts";
import { migrate } from "./database/migrate.ts";
import { openJobStore } from "./jobs/job-store.ts";
// kit:variant import
// kit:variant end

/** What a process of the platform runs on. */
export interface PlatformEnvironment {
  /** The database, the job store and the tokens accepted, for `composePlatform`. */
  readonly options: {
    readonly sql?: Database;
    // kit:variant option
    // kit:variant end
    readonly jobStore: JobStore;
    readonly jwtSecret: Uint8Array;
    readonly tokenIssuer: string;
    readonly tokenAudience: string;
    /** `OUTBOX_LEASE`: the lease of the relay's claimed deliveries, in ms. */
    readonly outboxLeaseMs: number;
  };
  /**
   * The readiness checks of what the process runs on, for `/health/ready`: the database (red
   * while out of reach, or while its pool is stalled: statements waiting and no answer for 10 s),
   * and the job store's (Redis unreachable, not durable or lost its data).
   */
  readonly readiness: Readonly<Record<string, HealthCheck>>;
  /** Where the data and the jobs are kept, for the start-up line. */
  readonly description: string;
  /** Closes the connections (after the application stopped). */
  close(): Promise<void>;
}

/**
 * Opens what `config` names (a long-running process, on Deno or Node): `DATABASE_URL` runs
 * every context on PostgreSQL, migrated here, its pool observed (`kit.db.pool.connections`);
 * without it, everything runs in memory (nothing is kept between runs). The job store follows the
 * project's queue. `JWT_SECRET` is the secret of the bearer tokens (see `tokenSecret`).
 */
export async function readEnvironment(
  config: PlatformConfig,
  logger: Logger = consoleLogger(),
): Promise<PlatformEnvironment> {
  const url = config.databaseUrl;
  if (url && !config.jwtSecret) {
    logger.log({
      level: "warn",
      component: "app",
      code: "JWT_SECRET_MISSING",
      message: "JWT_SECRET is not set: no bearer token is accepted",
    });
  }
  if (url) {
    // On a client of its own, without the statement time-out a migration may outlast.
    const migrations = connectForMigrations(url);
    try {
      await migrate(migrations, { reapply: config.migrationsReapply });
    } finally {
      await migrations.end({ timeout: 5 });
    }
  }
  const sql = url ? connectDatabase(url, config.database) : undefined;
  if (sql) observePostgresPool(sql);
  // kit:variant open
  const jobs = await openJobStore(sql, config, logger);
  // kit:variant end
  return {
    options: {
      ...(sql ? { sql } : {}),
      // kit:variant options
      // kit:variant end
      jobStore: jobs.store,
      jwtSecret: tokenSecret(config),
      tokenIssuer: config.tokenIssuer,
      tokenAudience: config.tokenAudience,
      outboxLeaseMs: config.outboxLeaseMs,
    },
    readiness: {
      ...(sql ? { database: postgresHealthCheck(sql, { logger }) } : {}),
      ...(jobs.check ? { jobs: jobs.check } : {}),
    },
    description: `data ${sql ? "on PostgreSQL (DATABASE_URL)" : "in memory"}, jobs ${jobs.name}`,
    async close() {
      await jobs.close();
      // kit:variant close
      // kit:variant end
      await sql?.end({ timeout: 5 });
    },
  };
}
