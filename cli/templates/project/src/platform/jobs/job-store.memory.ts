import { InMemoryJobStore, type JobStore } from "@kit/jobs";
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

/** The job store of the project's queue (memory): jobs are seen by this process only. */
export function openJobStore(
  _sql: Database | undefined,
  _config: PlatformConfig,
  _logger?: Logger,
): OpenedJobStore {
  return inMemory();
}
