import type { ProcessedEvents } from "../events/processed_events.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { markEventProcessed } from "./outbox_statements.ts";
import { transactionOf } from "./postgres_transactions.ts";

/**
 * Processed events on PostgreSQL: the (handler, event) pair is inserted behind the primary key
 * of `kit_processed_events`, in the consumer's transaction.
 */
export class PostgresProcessedEvents implements ProcessedEvents {
  /** Inserts the pair; false when it is there already. */
  async markProcessed(handler: string, eventId: string, unit: UnitOfWork): Promise<boolean> {
    const tx = transactionOf(unit);
    if (tx === undefined) {
      throw new Error(
        `PostgresProcessedEvents needs a Postgres unit of work to record '${handler}': compose the application with PostgresTransactions`,
      );
    }
    const { text, params } = markEventProcessed(handler, eventId);
    const rows = await tx.unsafe(text, params as string[], { prepare: true });
    return rows.length === 1;
  }
}
