import { InMemoryJobStore, type JobStore } from "@kit/jobs";
// kit:variant store-import
import { ContextRoutedJobStore } from "@kit/jobs";
import { PostgresJobStore } from "@kit/jobs/postgres";
// kit:variant end
import type { Logger } from "@kit/kernel";
import type { PlatformConfig } from "../config.ts";
// kit:variant local-import
import type { Database } from "../database/database.ts";
import project from "../../../kit.config.json" with { type: "json" };
// kit:variant end

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

// kit:variant open
/**
 * The job store of the project's queue (database): on PostgreSQL, each context's jobs in its own
 * schema (`<context>.background_jobs`, which `migrate` makes), each job enqueued in the transaction
 * of its command, when the platform runs on a database; in memory otherwise. The worker claims
 * each context's queue from its schema; the registry of live workers is kept in the first
 * context's schema.
 */
export function openJobStore(
  sql: Database | undefined,
  _config: PlatformConfig,
  _logger?: Logger,
): OpenedJobStore {
  if (sql === undefined) return inMemory();
  const store = new ContextRoutedJobStore({
    stores: Object.fromEntries(
      project.contexts.map(({ name }) => [
        name,
        new PostgresJobStore(sql, { schema: name.replaceAll("-", "_") }),
      ]),
    ),
  });
  return { store, name: "PostgreSQL", close: () => Promise.resolve() };
}
// kit:variant end
