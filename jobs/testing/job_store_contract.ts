import { InMemoryTransactions, type TransactionManager } from "@kit/kernel";
import type { JobStore } from "../store/job_store.ts";
import { jobStoreLifecycleContract } from "./job_store_lifecycle_contract.ts";
import { jobStoreLeaseContract } from "./job_store_lease_contract.ts";
import { jobStoreIdempotencyContract } from "./job_store_idempotency_contract.ts";
import { jobStoreOperatorContract } from "./job_store_operator_contract.ts";
import { jobStoreReadContract } from "./job_store_read_contract.ts";
import { jobStoreAttemptsContract } from "./job_store_attempts_contract.ts";
import { jobStoreWorkersContract } from "./job_store_workers_contract.ts";
import { jobStoreRetentionContract } from "./job_store_retention_contract.ts";

/** A store opened for one case of the contract. */
export interface OpenedJobStore {
  /** The empty store. */
  readonly store: JobStore;
  /**
   * Opens the units of work the store writes in: required when the store shares the transaction
   * (`PostgresTransactions` on the store's client); default `InMemoryTransactions`.
   */
  readonly transactions?: TransactionManager;
  /** Closes the store. */
  close(): Promise<void>;
}

/** How the contract opens a fresh, empty store for each case, and closes it. */
export interface JobStoreUnderTest {
  /** A name for the test titles (`InMemoryJobStore`). */
  readonly name: string;
  /** Skips every case (a store whose service is not configured). */
  readonly ignore?: boolean;
  /** Opens an empty store. */
  open(): Promise<OpenedJobStore>;
}

/**
 * The conformance suite every job store passes: every row of the job state table, idempotency
 * across tenants, stale reports, lease expiry, cancellation, revival and purge.
 *
 * @example
 * ```ts ignore
 * jobStoreContract({
 *   name: "InMemoryJobStore",
 *   open: () => Promise.resolve({ store: new InMemoryJobStore(), close: () => Promise.resolve() }),
 * });
 * ```
 */
export function jobStoreContract(subject: JobStoreUnderTest): void {
  const test = (
    name: string,
    fn: (store: JobStore, transactions: TransactionManager) => Promise<void>,
  ) =>
    Deno.test({
      name: `${subject.name} (jobStoreContract): ${name}`,
      ignore: subject.ignore ?? false,
      sanitizeOps: false,
      sanitizeResources: false,
      fn: async () => {
        const { store, close, transactions } = await subject.open();
        try {
          if (transactions === undefined && store.sharesTransaction) {
            throw new Error(
              `${subject.name} shares the transaction: its open() must answer the transactions it writes in`,
            );
          }
          await fn(store, transactions ?? new InMemoryTransactions());
        } finally {
          await close();
        }
      },
    });

  for (
    const area of [
      jobStoreLifecycleContract,
      jobStoreLeaseContract,
      jobStoreIdempotencyContract,
      jobStoreOperatorContract,
      jobStoreReadContract,
      jobStoreAttemptsContract,
      jobStoreWorkersContract,
      jobStoreRetentionContract,
    ]
  ) area(test);
}
