/**
 * The statements of the process managers' store (`kit_process_instances`,
 * `kit_process_messages`, made by `migrateProcesses`) as driver-neutral SQL text, written once:
 * `PostgresProcessStore` runs them through postgres.js, `@kit/jobs`' `SqlProcessStore` through
 * any driver (Drizzle, Knex). JSON travels as text, lists of tenants as JSON arrays.
 *
 * @module
 */
import type { JsonValue } from "../actor/actor.ts";
import { type SqlStatement, StatementParams } from "../postgres/sql_statement.ts";
import { checkProcessPageLimit, processCursorOf, processCursorRead } from "./process_reach.ts";
import type {
  ProcessInstance,
  ProcessInstanceListParams,
  ProcessInstancePage,
  ProcessInstanceRef,
  ProcessMessageMarkParams,
  ProcessReach,
} from "./process_store.ts";

/** The qualified names of a store's two tables. */
export interface ProcessTables {
  /** `kit_process_instances`, schema-qualified when a schema was given. */
  readonly instances: string;
  /** `kit_process_messages`, schema-qualified when a schema was given. */
  readonly messages: string;
}

/**
 * The tables in `schema` (default: the connection's search path).
 *
 * @throws {TypeError} When `schema` is not lower-case snake_case.
 */
export function processTables(schema: string | undefined): ProcessTables {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new TypeError(
      `Invalid schema name ${JSON.stringify(schema)}: use lower-case snake_case`,
    );
  }
  const prefix = schema === undefined ? "" : `"${schema}".`;
  return {
    instances: `${prefix}kit_process_instances`,
    messages: `${prefix}kit_process_messages`,
  };
}

/** The columns of an instance, as the statements that answer instances select them. */
const instanceColumns = `process, tenant_id, key, status, state, version, deadlines, started_at,
  updated_at, completed_at, ended_by`;

/** The condition of an instance's key (`process`, `tenant_id`, `key`) on its parameters. */
function refWhere(p: StatementParams, ref: ProcessInstanceRef, alias = ""): string {
  return `${alias}process = ${p.add(ref.process)}::text and ${alias}tenant_id = ${
    p.add(ref.tenantId)
  }::text and ${alias}key = ${p.add(ref.key)}::text`;
}

/** The condition of a reach on `tenant_id`: every tenant, or the tenant and its elevated ones. */
function reachWhere(p: StatementParams, reach: ProcessReach): string {
  if (reach.tenantId === undefined) return "true";
  const tenants = [reach.tenantId, ...(reach.elevatedTenants ?? [])];
  return `tenant_id in (select jsonb_array_elements_text(${p.json(tenants)}))`;
}

/** A JSON value as a `jsonb` parameter; `undefined` as SQL null. */
function optionalJson(p: StatementParams, value: JsonValue | undefined): string {
  return `${p.add(value === undefined ? null : JSON.stringify(value))}::text::jsonb`;
}

/** The instance, locked for the transaction (`for update`). */
export function loadInstance(tables: ProcessTables, ref: ProcessInstanceRef): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "loadProcessInstance",
    `select ${instanceColumns} from ${tables.instances} where ${refWhere(p, ref)} for update`,
  );
}

/** Inserts a new instance at version 1; answers a row (`inserted`) unless it exists already. */
export function insertInstance(tables: ProcessTables, instance: ProcessInstance): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "insertProcessInstance",
    `insert into ${tables.instances} (process, tenant_id, key, status, state, deadlines,
      started_at, updated_at, completed_at, version)
    values (${p.add(instance.process)}::text, ${p.add(instance.tenantId)}::text,
      ${p.add(instance.key)}::text, ${p.add(instance.status)}::text, ${p.json(instance.state)},
      ${p.json(instance.deadlines)}, ${p.add(instance.startedAt)}::timestamptz,
      ${p.add(instance.updatedAt)}::timestamptz,
      ${p.add(instance.completedAt ?? null)}::timestamptz, 1)
    on conflict do nothing returning 1 as inserted`,
  );
}

/**
 * Updates an instance still at the version it was loaded at (`instance.version`), to the next;
 * answers a row (`saved`) when it was.
 */
export function updateInstance(tables: ProcessTables, instance: ProcessInstance): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "updateProcessInstance",
    `update ${tables.instances} set status = ${p.add(instance.status)}::text,
      state = ${p.json(instance.state)}, deadlines = ${p.json(instance.deadlines)},
      started_at = ${p.add(instance.startedAt)}::timestamptz,
      updated_at = ${p.add(instance.updatedAt)}::timestamptz,
      completed_at = ${p.add(instance.completedAt ?? null)}::timestamptz,
      version = version + 1
    where ${refWhere(p, instance)} and version = ${p.add(instance.version)}::integer
    returning 1 as saved`,
  );
}

/** Inserts a message behind its key; answers a row (`inserted`) unless it is there already. */
export function markMessage(
  tables: ProcessTables,
  params: Omit<ProcessMessageMarkParams, "unit">,
): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "markProcessMessage",
    `insert into ${tables.messages}
      (process, tenant_id, key, message_id, kind, name, handled_at, parked)
    values (${p.add(params.process)}::text, ${p.add(params.tenantId)}::text,
      ${p.add(params.key)}::text, ${p.add(params.messageId)}::text, ${p.add(params.kind)}::text,
      ${p.add(params.name)}::text, ${p.add(params.now)}::timestamptz,
      ${optionalJson(p, params.parked)})
    on conflict do nothing returning 1 as inserted`,
  );
}

/** Takes the parked events of the instance (no longer parked); answers them (`event`) in order. */
export function takeParkedMessages(tables: ProcessTables, ref: ProcessInstanceRef): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "takeParkedProcessMessages",
    `with taken as (
      update ${tables.messages} m set parked = null
      from ${tables.messages} old_m
      where ${refWhere(p, ref, "m.")} and m.parked is not null
        and old_m.process = m.process and old_m.tenant_id = m.tenant_id
        and old_m.key = m.key and old_m.message_id = m.message_id
      returning old_m.parked as event, m.seq
    )
    select event from taken order by seq`,
  );
}

/** The messages kept for the instance, in the order they were handled (`parked` a boolean). */
export function listMessages(tables: ProcessTables, ref: ProcessInstanceRef): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "listProcessMessages",
    `select process, tenant_id, key, message_id, kind, name, handled_at,
      parked is not null as parked from ${tables.messages}
    where ${refWhere(p, ref)} order by seq`,
  );
}

/** Each process's instances by status (`active`, `completed`), among the tenants reached. */
export function countInstances(tables: ProcessTables, reach: ProcessReach): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "countProcessInstances",
    `select process, count(*) filter (where status = 'active')::int as active,
      count(*) filter (where status = 'completed')::int as completed
    from ${tables.instances} where ${reachWhere(p, reach)}
    group by process order by process collate "C"`,
  );
}

/**
 * A page of the process's instances among the tenants reached, by tenant then key, after the
 * cursor given: `limit + 1` rows, the last one telling that a next page exists ({@linkcode
 * instancePage}).
 *
 * @throws {RangeError} When the limit is not 1 to `processPageMaxLimit`.
 * @throws {TypeError} When the cursor is not one a page answered.
 */
export function listInstances(
  tables: ProcessTables,
  params: ProcessInstanceListParams,
): SqlStatement {
  checkProcessPageLimit(params.limit);
  const after = params.after === undefined ? undefined : processCursorRead(params.after);
  if (params.after !== undefined && after === undefined) {
    throw new TypeError("The cursor is not one a page of instances answered");
  }
  const p = new StatementParams();
  const status = p.add(params.status ?? null);
  const afterTenant = p.add(after?.[0] ?? null);
  const afterKey = p.add(after?.[1] ?? null);
  return p.statement(
    "listProcessInstances",
    `select ${instanceColumns} from ${tables.instances}
    where process = ${p.add(params.process)}::text
      and (${status}::text is null or status = ${status}::text)
      and (${afterTenant}::text is null
        or (tenant_id collate "C", key collate "C") > (${afterTenant}::text, ${afterKey}::text))
      and ${reachWhere(p, params.reach)}
    order by tenant_id collate "C", key collate "C" limit ${p.add(params.limit + 1)}::integer`,
  );
}

/** The page of the instances {@linkcode listInstances} answered, with its next cursor. */
export function instancePage(
  instances: readonly ProcessInstance[],
  limit: number,
): ProcessInstancePage {
  const page = instances.slice(0, limit);
  return {
    instances: page,
    ...(instances.length > limit ? { next: processCursorOf(page[page.length - 1]!) } : {}),
  };
}

/** The instance, as committed (no lock). */
export function readInstance(tables: ProcessTables, ref: ProcessInstanceRef): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "readProcessInstance",
    `select ${instanceColumns} from ${tables.instances} where ${refWhere(p, ref)}`,
  );
}

/** The instance when it is active, locked for the transaction (`for update`). */
export function loadActiveInstance(tables: ProcessTables, ref: ProcessInstanceRef): SqlStatement {
  const p = new StatementParams();
  return p.statement(
    "loadActiveProcessInstance",
    `select ${instanceColumns} from ${tables.instances}
    where ${refWhere(p, ref)} and status = 'active' for update`,
  );
}

/**
 * Completes the instance as an operator's (`by`): no deadlines left, its end recorded, its
 * version the next; and records the end among its messages (`end:<version loaded>`), in one
 * statement.
 */
export function endInstance(
  tables: ProcessTables,
  ref: ProcessInstanceRef,
  params: { readonly by: string; readonly now: Date; readonly loadedVersion: number },
): SqlStatement {
  const p = new StatementParams();
  const now = `${p.add(params.now)}::timestamptz`;
  const by = `${p.add(params.by)}::text`;
  return p.statement(
    "endProcessInstance",
    `with ended as (
      update ${tables.instances} set status = 'completed', deadlines = '{}'::jsonb,
        updated_at = ${now}, completed_at = ${now}, ended_by = ${by}, version = version + 1
      where ${refWhere(p, ref)}
      returning process, tenant_id, key
    )
    insert into ${tables.messages} (process, tenant_id, key, message_id, kind, name, handled_at)
    select process, tenant_id, key, ${
      p.add(`end:${params.loadedVersion}`)
    }::text, 'operator', ${by}, ${now}
    from ended on conflict do nothing`,
  );
}

/**
 * Deletes completed instances completed before the instant, with their messages, and the
 * messages before it of instances that never started; answers `purged`, the instances deleted.
 */
export function purgeCompleted(tables: ProcessTables, before: Date): SqlStatement {
  const p = new StatementParams();
  const instant = `${p.add(before)}::timestamptz`;
  return p.statement(
    "purgeCompletedProcessInstances",
    `with purged as (
      delete from ${tables.instances} where status = 'completed' and completed_at < ${instant}
      returning process, tenant_id, key
    ), messages as (
      delete from ${tables.messages} m using purged p
      where m.process = p.process and m.tenant_id = p.tenant_id and m.key = p.key
    ), orphans as (
      delete from ${tables.messages} m where m.handled_at < ${instant} and not exists (
        select 1 from ${tables.instances} i
        where i.process = m.process and i.tenant_id = m.tenant_id and i.key = m.key)
    )
    select count(*)::int as purged from purged`,
  );
}
