import type postgres from "postgres";
import type { JsonValue } from "../actor/actor.ts";
import { expectSaved } from "../concurrency/versions.ts";
import { ConcurrentUpdateError } from "../errors/kernel_refusals.ts";
import { transactionOf } from "../postgres/postgres_transactions.ts";
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
import {
  checkProcessPageLimit,
  processCursorOf,
  processCursorRead,
  processReaches,
} from "./process_reach.ts";

const instanceColumns = `process, tenant_id, key, status, state, version, deadlines, started_at,
  updated_at, completed_at, ended_by`;

/** The SQL condition of a reach on `tenant_id`, its parameters from `$<from>`. */
function reachWhere(reach: ProcessReach, from: number): { sql: string; values: string[] } {
  if (reach.tenantId === undefined) return { sql: "true", values: [] };
  return {
    sql: `tenant_id = any($${from}::text[])`,
    values: [reach.tenantId, ...(reach.elevatedTenants ?? [])] as never,
  };
}

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
  readonly #instances: string;
  readonly #messages: string;

  /** A store on this client, in the schema given (default: the search path). */
  constructor(sql: postgres.Sql, options: PostgresProcessStoreOptions = {}) {
    const schema = options.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
      throw new TypeError(
        `Invalid schema name ${JSON.stringify(schema)}: use lower-case snake_case`,
      );
    }
    this.#sql = sql;
    const prefix = schema === undefined ? "" : `"${schema}".`;
    this.#instances = `${prefix}kit_process_instances`;
    this.#messages = `${prefix}kit_process_messages`;
  }

  /** The instance, locked for the transaction (`for update`). */
  async instanceLoad(
    params: ProcessInstanceRef & { unit: UnitOfWork },
  ): Promise<ProcessInstance | undefined> {
    const tx = this.#tx(params.unit);
    const rows = await tx.unsafe(
      `select ${instanceColumns} from ${this.#instances}
      where process = $1 and tenant_id = $2 and key = $3 for update`,
      [params.process, params.tenantId, params.key],
    );
    const row = rows[0];
    return row === undefined ? undefined : toInstance(row);
  }

  /** Inserts a new instance (version 0) or updates one still at its version. */
  async instanceSave(params: ProcessInstanceSaveParams): Promise<number> {
    const { instance } = params;
    const tx = this.#tx(params.unit);
    const values = [
      instance.process,
      instance.tenantId,
      instance.key,
      instance.status,
      instance.state,
      instance.deadlines,
      instance.startedAt,
      instance.updatedAt,
      instance.completedAt ?? null,
    ];
    if (instance.version === 0) {
      const rows = await tx.unsafe(
        `insert into ${this.#instances} (process, tenant_id, key, status, state, deadlines,
          started_at, updated_at, completed_at, version)
        values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, 1)
        on conflict do nothing returning 1 as inserted`,
        values as postgres.ParameterOrJSON<never>[],
      );
      if (rows.length === 1) return 1;
      throw new ConcurrentUpdateError(`process instance of '${instance.process}'`, instance.key, {
        expectedVersion: 0,
      });
    }
    const result = await tx.unsafe(
      `update ${this.#instances} set status = $4, state = $5::jsonb, deadlines = $6::jsonb,
        started_at = $7, updated_at = $8, completed_at = $9, version = version + 1
      where process = $1 and tenant_id = $2 and key = $3 and version = $10`,
      [...values, instance.version] as postgres.ParameterOrJSON<never>[],
    );
    return expectSaved(result.count, {
      type: `process instance of '${instance.process}'`,
      id: instance.key,
      version: instance.version,
    });
  }

  /** Inserts the message behind its key; false when it is there already. */
  async messageMark(params: ProcessMessageMarkParams): Promise<boolean> {
    const tx = this.#tx(params.unit);
    const rows = await tx.unsafe(
      `insert into ${this.#messages}
        (process, tenant_id, key, message_id, kind, name, handled_at, parked)
      values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) on conflict do nothing returning 1 as inserted`,
      [
        params.process,
        params.tenantId,
        params.key,
        params.messageId,
        params.kind,
        params.name,
        params.now,
        params.parked ?? null,
      ] as postgres.ParameterOrJSON<never>[],
    );
    return rows.length === 1;
  }

  /** Takes the parked events of the instance (no longer parked), in the order they arrived. */
  async messageTakeParked(
    params: ProcessInstanceRef & { unit: UnitOfWork },
  ): Promise<JsonValue[]> {
    const tx = this.#tx(params.unit);
    const rows = await tx.unsafe(
      `with taken as (
        update ${this.#messages} m set parked = null
        from ${this.#messages} old_m
        where m.process = $1 and m.tenant_id = $2 and m.key = $3 and m.parked is not null
          and old_m.process = m.process and old_m.tenant_id = m.tenant_id
          and old_m.key = m.key and old_m.message_id = m.message_id
        returning old_m.parked as event, m.seq
      )
      select event from taken order by seq`,
      [params.process, params.tenantId, params.key],
    );
    return rows.map((row) => row.event as JsonValue);
  }

  /** The messages kept for the instance, in the order they were handled. */
  async messageList(params: ProcessInstanceRef): Promise<ProcessMessage[]> {
    const rows = await this.#sql.unsafe(
      `select process, tenant_id, key, message_id, kind, name, handled_at,
        parked is not null as parked from ${this.#messages}
      where process = $1 and tenant_id = $2 and key = $3 order by seq`,
      [params.process, params.tenantId, params.key],
    );
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
    const reach = reachWhere(params.reach, 1);
    const rows = await this.#sql.unsafe(
      `select process, count(*) filter (where status = 'active')::int as active,
        count(*) filter (where status = 'completed')::int as completed
      from ${this.#instances} where ${reach.sql} group by process order by process collate "C"`,
      reach.values.length === 0 ? [] : [reach.values],
    );
    return rows.map((row) => ({
      process: row.process as string,
      active: row.active as number,
      completed: row.completed as number,
    }));
  }

  /** A page of the process's instances among the tenants reached, by tenant then key. */
  async instanceList(params: ProcessInstanceListParams): Promise<ProcessInstancePage> {
    checkProcessPageLimit(params.limit);
    const after = params.after === undefined ? undefined : processCursorRead(params.after);
    if (params.after !== undefined && after === undefined) {
      throw new TypeError("The cursor is not one a page of instances answered");
    }
    const reach = reachWhere(params.reach, 6);
    const rows = await this.#sql.unsafe(
      `select ${instanceColumns} from ${this.#instances}
      where process = $1 and ($2::text is null or status = $2)
        and ($3::text is null or (tenant_id collate "C", key collate "C") > ($3, $4))
        and ${reach.sql}
      order by tenant_id collate "C", key collate "C" limit $5`,
      [
        params.process,
        params.status ?? null,
        after?.[0] ?? null,
        after?.[1] ?? null,
        params.limit + 1,
        ...(reach.values.length === 0 ? [] : [reach.values]),
      ] as postgres.ParameterOrJSON<never>[],
    );
    const instances = rows.slice(0, params.limit).map(toInstance);
    return {
      instances,
      ...(rows.length > params.limit
        ? { next: processCursorOf(instances[instances.length - 1]!) }
        : {}),
    };
  }

  /** The instance, committed, when the reach includes its tenant. */
  async instanceRead(
    params: ProcessInstanceRef & { readonly reach: ProcessReach },
  ): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return undefined;
    const rows = await this.#sql.unsafe(
      `select ${instanceColumns} from ${this.#instances}
      where process = $1 and tenant_id = $2 and key = $3`,
      [params.process, params.tenantId, params.key],
    );
    return rows[0] === undefined ? undefined : toInstance(rows[0]);
  }

  /** Completes the active instance (locked) as the operator's, and records the end. */
  async instanceEnd(params: ProcessInstanceEndParams): Promise<ProcessInstance | undefined> {
    if (!processReaches(params.reach, params.tenantId)) return undefined;
    const tx = this.#tx(params.unit);
    const ref = [params.process, params.tenantId, params.key];
    const rows = await tx.unsafe(
      `select ${instanceColumns} from ${this.#instances}
      where process = $1 and tenant_id = $2 and key = $3 and status = 'active' for update`,
      ref,
    );
    if (rows[0] === undefined) return undefined;
    const loaded = toInstance(rows[0]);
    await tx.unsafe(
      `update ${this.#instances} set status = 'completed', deadlines = '{}'::jsonb,
        updated_at = $4, completed_at = $4, ended_by = $5, version = version + 1
      where process = $1 and tenant_id = $2 and key = $3`,
      [...ref, params.now, params.by] as postgres.ParameterOrJSON<never>[],
    );
    await tx.unsafe(
      `insert into ${this.#messages} (process, tenant_id, key, message_id, kind, name, handled_at)
      values ($1, $2, $3, $4, 'operator', $5, $6) on conflict do nothing`,
      [...ref, `end:${loaded.version}`, params.by, params.now] as postgres.ParameterOrJSON<
        never
      >[],
    );
    return loaded;
  }

  /**
   * Deletes completed instances completed before the instant, with their messages, and the
   * messages before it of instances that never started.
   */
  async instancePurgeCompleted(params: ProcessPurgeParams): Promise<number> {
    const rows = await this.#sql.unsafe(
      `with purged as (
        delete from ${this.#instances} where status = 'completed' and completed_at < $1
        returning process, tenant_id, key
      ), messages as (
        delete from ${this.#messages} m using purged p
        where m.process = p.process and m.tenant_id = p.tenant_id and m.key = p.key
      ), orphans as (
        delete from ${this.#messages} m where m.handled_at < $1 and not exists (
          select 1 from ${this.#instances} i
          where i.process = m.process and i.tenant_id = m.tenant_id and i.key = m.key)
      )
      select count(*)::int as purged from purged`,
      [params.before],
    );
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
