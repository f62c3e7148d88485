import type { JsonValue } from "@kit/kernel/types";
import { ConcurrentUpdateError, expectSaved } from "@kit/kernel";
import {
  processReaches,
  processStatements as statements,
  type UnitOfWork,
} from "@kit/kernel/internal";
import type {
  PendingDeadline,
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
} from "@kit/kernel/process";
import type { JobSqlDriver, SqlQuery, SqlRow } from "./job_sql_driver.ts";
import { JobRowReader } from "./job_rows.ts";

/** How an {@linkcode SqlProcessStore} finds its tables. */
export interface SqlProcessStoreOptions {
  /**
   * The schema of `kit_process_instances` and `kit_process_messages` (the context's, lower-case
   * snake_case); default: the connection's search path.
   */
  readonly schema?: string;
}

/**
 * Process instances on PostgreSQL through any driver (Drizzle, Knex): the statements of
 * `PostgresProcessStore`, on its tables (`migrateProcesses`, or the ORM package's
 * `createProcessTables`), run by a {@linkcode JobSqlDriver}. A transition's reads and writes run
 * in the unit of work's transaction (the driver's), so an instance's state commits with the
 * command's writes, its events and its jobs, or not at all: the instance row is loaded `for
 * update` and saved where its version is still the one loaded, so two transitions of one
 * instance never both commit; a message's id is unique per instance, so a duplicate is seen in
 * the same transaction. A unit of another transaction manager is refused.
 */
export class SqlProcessStore implements ProcessStore {
  readonly #driver: JobSqlDriver;
  readonly #tables: statements.ProcessTables;

  /** A store on this driver, in the schema given (default: the search path). */
  constructor(driver: JobSqlDriver, options: SqlProcessStoreOptions = {}) {
    this.#driver = driver;
    this.#tables = statements.processTables(options.schema);
  }

  /** The instance, locked for the transaction (`for update`). */
  async instanceLoad(
    params: ProcessInstanceRef & { unit: UnitOfWork },
  ): Promise<ProcessInstance | undefined> {
    const query = this.#inUnit(params.unit, `load an instance of '${params.process}'`);
    const statement = statements.loadInstance(this.#tables, params);
    const [row] = await query(statement);
    return row === undefined ? undefined : instanceOf(row, statement.name);
  }

  /** Inserts a new instance (version 0) or updates one still at its version. */
  async instanceSave(params: ProcessInstanceSaveParams): Promise<number> {
    const { instance } = params;
    const query = this.#inUnit(params.unit, `save an instance of '${instance.process}'`);
    if (instance.version === 0) {
      const rows = await query(statements.insertInstance(this.#tables, instance));
      if (rows.length === 1) return 1;
      throw new ConcurrentUpdateError(`process instance of '${instance.process}'`, instance.key, {
        expectedVersion: 0,
      });
    }
    const rows = await query(statements.updateInstance(this.#tables, instance));
    return expectSaved(rows.length, {
      type: `process instance of '${instance.process}'`,
      id: instance.key,
      version: instance.version,
    });
  }

  /** Inserts the message behind its key; false when it is there already. */
  async messageMark(params: ProcessMessageMarkParams): Promise<boolean> {
    const query = this.#inUnit(params.unit, `mark a message of '${params.process}'`);
    const rows = await query(statements.markMessage(this.#tables, params));
    return rows.length === 1;
  }

  /** Takes the parked events of the instance (no longer parked), in the order they arrived. */
  async messageTakeParked(
    params: ProcessInstanceRef & { unit: UnitOfWork },
  ): Promise<JsonValue[]> {
    const query = this.#inUnit(params.unit, `take the parked events of '${params.process}'`);
    const statement = statements.takeParkedMessages(this.#tables, params);
    const rows = await query(statement);
    return rows.map((row) => new JobRowReader(row, statement.name).json("event"));
  }

  /** The messages kept for the instance, in the order they were handled. */
  async messageList(params: ProcessInstanceRef): Promise<ProcessMessage[]> {
    const statement = statements.listMessages(this.#tables, params);
    const rows = await this.#driver.query(statement);
    return rows.map((row) => {
      const read = new JobRowReader(row, statement.name);
      return {
        process: read.text("process"),
        tenantId: read.text("tenant_id"),
        key: read.text("key"),
        messageId: read.text("message_id"),
        kind: read.text("kind") as ProcessMessageKind,
        name: read.text("name"),
        handledAt: read.date("handled_at"),
        parked: row.parked === true,
      };
    });
  }

  /** Each process's instances by status, among the tenants reached. */
  async instanceCount(params: { readonly reach: ProcessReach }): Promise<ProcessInstanceCounts[]> {
    const statement = statements.countInstances(this.#tables, params.reach);
    const rows = await this.#driver.query(statement);
    return rows.map((row) => {
      const read = new JobRowReader(row, statement.name);
      return {
        process: read.text("process"),
        active: read.integer("active"),
        completed: read.integer("completed"),
      };
    });
  }

  /** A page of the process's instances among the tenants reached, by tenant then key. */
  async instanceList(params: ProcessInstanceListParams): Promise<ProcessInstancePage> {
    const statement = statements.listInstances(this.#tables, params);
    const rows = await this.#driver.query(statement);
    return statements.instancePage(
      rows.map((row) => instanceOf(row, statement.name)),
      params.limit,
    );
  }

  /** The instance, committed, when the reach includes its tenant. */
  async instanceRead(
    params: ProcessInstanceRef & { readonly reach: ProcessReach },
  ): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return undefined;
    const statement = statements.readInstance(this.#tables, params);
    const [row] = await this.#driver.query(statement);
    return row === undefined ? undefined : instanceOf(row, statement.name);
  }

  /** Completes the active instance (locked) as the operator's, and records the end. */
  async instanceEnd(params: ProcessInstanceEndParams): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return undefined;
    const query = this.#inUnit(params.unit, `end an instance of '${params.process}'`);
    const statement = statements.loadActiveInstance(this.#tables, params);
    const [row] = await query(statement);
    if (row === undefined) return undefined;
    const loaded = instanceOf(row, statement.name);
    await query(
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
    const statement = statements.purgeCompleted(this.#tables, params.before);
    const [row] = await this.#driver.query(statement);
    return new JobRowReader(row ?? {}, statement.name).integer("purged");
  }

  #inUnit(unit: UnitOfWork, what: string): SqlQuery {
    const query = this.#driver.inUnit(unit);
    if (query === undefined) {
      throw new Error(
        `${this.#driver.storeName} needs a unit of work of its driver to ${what}: compose the application with ${this.#driver.transactionsName}`,
      );
    }
    return query;
  }
}

/** An instance, from a row of the instance columns. */
function instanceOf(row: SqlRow, statement: string): ProcessInstance {
  const read = new JobRowReader(row, statement);
  const status = read.text("status");
  if (status !== "active" && status !== "completed") {
    throw new TypeError(
      `The row of '${statement}' has a 'status' that is not active or completed: got ${
        JSON.stringify(status)
      }`,
    );
  }
  const completedAt = read.optionalDate("completed_at");
  const endedBy = row.ended_by === undefined ? undefined : read.optionalText("ended_by");
  return {
    process: read.text("process"),
    tenantId: read.text("tenant_id"),
    key: read.text("key"),
    status,
    state: read.json("state"),
    version: read.integer("version"),
    deadlines: read.json("deadlines") as unknown as Record<string, PendingDeadline>,
    startedAt: read.date("started_at"),
    updatedAt: read.date("updated_at"),
    ...(completedAt === undefined ? {} : { completedAt }),
    ...(endedBy === undefined ? {} : { endedBy }),
  };
}
