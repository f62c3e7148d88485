import { InMemoryJobStore, type JobStore } from "@kit/jobs";
import { PostgresJobStore } from "@kit/jobs/postgres";
import type { Logger } from "@kit/kernel";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";

/** A job store, named for the start-up line, its readiness check if any, and how to release it. */
export interface OpenedJobStore {
  readonly store: JobStore;
  readonly name: string;
  /** Rejects while the store cannot keep what is enqueued (its server unreachable, not durable). */
  readonly check?: () => Promise<void>;
  close(): Promise<void>;
}

const inMemory = (): OpenedJobStore => ({
  store: new InMemoryJobStore(),
  name: "in memory",
  close: () => Promise.resolve(),
});

/**
 * The job store of the project's queue (database): on PostgreSQL, each job enqueued in the
 * transaction of its command, when the platform runs on a database; in memory otherwise.
 */
export function openJobStore(
  sql: Database | undefined,
  _config: PlatformConfig,
  _logger?: Logger,
): OpenedJobStore {
  if (sql === undefined) return inMemory();
  return { store: new PostgresJobStore(sql), name: "PostgreSQL", close: () => Promise.resolve() };
}
