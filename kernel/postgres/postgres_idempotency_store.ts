import type postgres from "postgres";
import type {
  IdempotencyClaim,
  IdempotencyKeyParams,
  IdempotencyStore,
  KeptAnswer,
} from "../idempotency/idempotency_store.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import { transactionOf } from "./postgres_transactions.ts";

/**
 * Idempotency keys on PostgreSQL (table `kit_idempotency_keys`, from `migrateKernel`): a claim
 * takes a transaction-scoped advisory lock on the key without waiting (held: `in-flight`), then
 * reads the kept answer; the answer is inserted in the request's transaction, so it exists
 * exactly when the use case committed.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #sql: postgres.Sql;

  /** Keys on this client's database (the table on its search path). */
  constructor(sql: postgres.Sql) {
    this.#sql = sql;
  }

  /**
   * Claims the key in the unit's transaction: a kept answer is replayed without waiting; else a
   * transaction-scoped advisory lock is tried (held by another unit: `in-flight`), and the row
   * read again, since the holder may have committed in between.
   */
  async claim(params: IdempotencyKeyParams & { expiresBefore: Date }): Promise<IdempotencyClaim> {
    const tx = requireTransaction(params.unit);
    const kept = await keptClaim(tx, params);
    if (kept !== undefined) return kept;
    const [lock] = await tx`
      select pg_try_advisory_xact_lock(hashtextextended(${params.scope + "\n" + params.key}, 1))
        as held`;
    if (lock?.held !== true) return { outcome: "in-flight" };
    return await keptClaim(tx, params) ?? { outcome: "new" };
  }

  /** Inserts the answer in the unit's transaction (replacing an expired one). */
  async keep(params: IdempotencyKeyParams & { answer: KeptAnswer }): Promise<void> {
    const tx = requireTransaction(params.unit);
    const { answer } = params;
    const body = answer.body === undefined ? null : tx.json(answer.body as postgres.JSONValue);
    const headers = answer.headers === undefined
      ? null
      : tx.json(answer.headers as unknown as postgres.JSONValue);
    await tx`
      insert into kit_idempotency_keys (scope, key, fingerprint, status, body, headers, created_at)
      values (${params.scope}, ${params.key}, ${params.fingerprint}, ${answer.status}, ${body},
        ${headers}, ${params.now})
      on conflict (scope, key) do update set fingerprint = excluded.fingerprint,
        status = excluded.status, body = excluded.body, headers = excluded.headers,
        created_at = excluded.created_at`;
  }

  /** Nothing to do: the advisory lock ends with the transaction. */
  release(): void {}

  /** Deletes the answers kept before the instant. */
  async purgeExpired(before: Date): Promise<number> {
    const result = await this.#sql`delete from kit_idempotency_keys where created_at < ${before}`;
    return result.count;
  }
}

async function keptClaim(
  tx: postgres.TransactionSql,
  params: IdempotencyKeyParams & { expiresBefore: Date },
): Promise<IdempotencyClaim | undefined> {
  const [row] = await tx`
    select fingerprint, status, body, headers from kit_idempotency_keys
    where scope = ${params.scope} and key = ${params.key} and created_at >= ${params.expiresBefore}`;
  if (row === undefined) return undefined;
  if (row.fingerprint !== params.fingerprint) return { outcome: "mismatch" };
  return {
    outcome: "replay",
    answer: {
      status: row.status as number,
      ...(row.body === null ? {} : { body: row.body }),
      ...(row.headers === null ? {} : { headers: row.headers as Record<string, string> }),
    },
  };
}

function requireTransaction(unit: UnitOfWork): postgres.TransactionSql {
  const tx = transactionOf(unit);
  if (tx === undefined) {
    throw new Error(
      "PostgresIdempotencyStore keeps answers in a Postgres unit of work: compose the application with PostgresTransactions",
    );
  }
  return tx;
}
