import type postgres from "postgres";
import type { JsonValue } from "../actor/actor.ts";
import { expectSaved } from "../concurrency/versions.ts";
import { ConcurrentUpdateError } from "../errors/kernel_refusals.ts";
import { transactionOf } from "../postgres/postgres_transactions.ts";
import type { SqlStatement } from "../postgres/sql_statement.ts";
import type { UnitOfWork } from "../unit_of_work/unit_of_work.ts";
import type { PendingDeadline } from "./process_context.ts";
import type {
  ProcessInstance,
  ProcessInstanceCounts,
  ProcessInstanceEndParams,
  ProcessInstanceListParams,
  ProcessInstancePage,
  ProcessInstanceRef,
  ProcessInstanceSaveParams,
  ProcessMessage,
  ProcessMessageKind,
  ProcessMessageMarkParams,
  ProcessPurgeParams,
  ProcessReach,
  ProcessStore,
} from "./process_store.ts";
import { processReaches } from "./process_reach.ts";
import * as statements from "./process_statements.ts";
import { type ProcessTables, processTables } from "./process_statements.ts";

/** The options of {@linkcode PostgresProcessStore}. */
export interface PostgresProcessStoreOptions {
  /**
   * The schema of the tables (the context's, as `migrateProcesses` made them); default the
   * connection's search path.
   */
  readonly schema?: string;
}

/**
 * Process instances on PostgreSQL (`kit_process_instances`, `kit_process_messages`, made by
 * `migrateProcesses`), written in the transition's transaction: the instance row is loaded `for
 * update` and saved where its version is still the one loaded, so two transitions of one instance
 * never both commit; a message's id is unique per instance, so a duplicate is seen in the same
 * transaction. Needs units of work of `PostgresTransactions` on the same database.
 */
export class PostgresProcessStore implements ProcessStore {
  readonly #sql: postgres.Sql;
  readonly #tables: ProcessTables;

  /** A store on this client, in the schema given (default: the search path). */
  constructor(sql: postgres.Sql, options: PostgresProcessStoreOptions = {}) {
    this.#tables = processTables(options.schema);
    this.#sql = sql;
  }

  /** The instance, locked for the transaction (`for update`). */
  async instanceLoad(
    params: ProcessInstanceRef & { unit: UnitOfWork },
  ): Promise<ProcessInstance | undefined> {
    const rows = await run(this.#tx(params.unit), statements.loadInstance(this.#tables, params));
    const row = rows[0];
    return row === undefined ? undefined : toInstance(row);
  }

  /** Inserts a new instance (version 0) or updates one still at its version. */
  async instanceSave(params: ProcessInstanceSaveParams): Promise<number> {
    const { instance } = params;
    const tx = this.#tx(params.unit);
    if (instance.version === 0) {
      const rows = await run(tx, statements.insertInstance(this.#tables, instance));
      if (rows.length === 1) return 1;
      throw new ConcurrentUpdateError(`process instance of '${instance.process}'`, instance.key, {
        expectedVersion: 0,
      });
    }
    const rows = await run(tx, statements.updateInstance(this.#tables, instance));
    return expectSaved(rows.length, {
      type: `process instance of '${instance.process}'`,
      id: instance.key,
      version: instance.version,
    });
  }

  /** Inserts the message behind its key; false when it is there already. */
  async messageMark(params: ProcessMessageMarkParams): Promise<boolean> {
    const rows = await run(this.#tx(params.unit), statements.markMessage(this.#tables, params));
    return rows.length === 1;
  }

  /** Takes the parked events of the instance (no longer parked), in the order they arrived. */
  async messageTakeParked(
    params: ProcessInstanceRef & { unit: UnitOfWork },
  ): Promise<JsonValue[]> {
    const rows = await run(
      this.#tx(params.unit),
      statements.takeParkedMessages(this.#tables, params),
    );
    return rows.map((row) => row.event as JsonValue);
  }

  /** The messages kept for the instance, in the order they were handled. */
  async messageList(params: ProcessInstanceRef): Promise<ProcessMessage[]> {
    const rows = await run(this.#sql, statements.listMessages(this.#tables, params));
    return rows.map((row) => ({
      process: row.process as string,
      tenantId: row.tenant_id as string,
      key: row.key as string,
      messageId: row.message_id as string,
      kind: row.kind as ProcessMessageKind,
      name: row.name as string,
      handledAt: new Date(row.handled_at as Date),
      parked: row.parked as boolean,
    }));
  }

  /** Each process's instances by status, among the tenants reached. */
  async instanceCount(params: { readonly reach: ProcessReach }): Promise<ProcessInstanceCounts[]> {
    const rows = await run(this.#sql, statements.countInstances(this.#tables, params.reach));
    return rows.map((row) => ({
      process: row.process as string,
      active: row.active as number,
      completed: row.completed as number,
    }));
  }

  /** A page of the process's instances among the tenants reached, by tenant then key. */
  async instanceList(params: ProcessInstanceListParams): Promise<ProcessInstancePage> {
    const rows = await run(this.#sql, statements.listInstances(this.#tables, params));
    return statements.instancePage(rows.map(toInstance), params.limit);
  }

  /** The instance, committed, when the reach includes its tenant. */
  async instanceRead(
    params: ProcessInstanceRef & { readonly reach: ProcessReach },
  ): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return undefined;
    const rows = await run(this.#sql, statements.readInstance(this.#tables, params));
    return rows[0] === undefined ? undefined : toInstance(rows[0]);
  }

  /** Completes the active instance (locked) as the operator's, and records the end. */
  async instanceEnd(params: ProcessInstanceEndParams): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return undefined;
    const tx = this.#tx(params.unit);
    const rows = await run(tx, statements.loadActiveInstance(this.#tables, params));
    if (rows[0] === undefined) return undefined;
    const loaded = toInstance(rows[0]);
    await run(
      tx,
      statements.endInstance(this.#tables, params, {
        by: params.by,
        now: params.now,
        loadedVersion: loaded.version,
      }),
    );
    return loaded;
  }

  /**
   * Deletes completed instances completed before the instant, with their messages, and the
   * messages before it of instances that never started.
   */
  async instancePurgeCompleted(params: ProcessPurgeParams): Promise<number> {
    const rows = await run(this.#sql, statements.purgeCompleted(this.#tables, params.before));
    return rows[0]!.purged as number;
  }

  #tx(unit: UnitOfWork): postgres.TransactionSql {
    const tx = transactionOf(unit);
    if (tx === undefined) {
      throw new Error(
        "PostgresProcessStore writes in a Postgres unit of work: compose the application with PostgresTransactions",
      );
    }
    return tx;
  }
}

/** Runs one of the store's statements, prepared (unless the client was made with `prepare: false`). */
function run(
  sql: postgres.Sql | postgres.TransactionSql,
  statement: SqlStatement,
): Promise<postgres.RowList<postgres.Row[]>> {
  const params = statement.params as postgres.ParameterOrJSON<never>[];
  return sql.unsafe(statement.text, params, { prepare: true });
}

function toInstance(row: postgres.Row): ProcessInstance {
  return {
    process: row.process as string,
    tenantId: row.tenant_id as string,
    key: row.key as string,
    status: row.status as "active" | "completed",
    state: row.state as JsonValue,
    version: row.version as number,
    deadlines: row.deadlines as Record<string, PendingDeadline>,
    startedAt: new Date(row.started_at as Date),
    updatedAt: new Date(row.updated_at as Date),
    ...(row.completed_at === null ? {} : { completedAt: new Date(row.completed_at as Date) }),
    ...(row.ended_by === null || row.ended_by === undefined
      ? {}
      : { endedBy: row.ended_by as string }),
  };
}
