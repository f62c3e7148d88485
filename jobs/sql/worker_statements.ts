/**
 * The statements of the registry of live workers, table `background_job_workers` (migration 5).
 *
 * @module
 */
import type { WorkerHeartbeatParams } from "../store/worker_registry.ts";
import { type JobStatement, StatementParams } from "./statement.ts";

/**
 * Registers a worker or refreshes its registration (an upsert on the primary key), and deletes
 * the registrations that expired.
 *
 * Locks: the worker's row, and the expired rows not locked already (`skip locked`: two
 * heartbeats never wait on each other's cleanup). Reads the small table whole.
 *
 * @param params The worker, the instant and the ttl.
 * @returns The statement: no rows.
 */
export function heartbeatWorker(params: WorkerHeartbeatParams): JobStatement {
  const { worker } = params;
  const p = new StatementParams();
  const now = p.add(params.now);
  const id = p.add(worker.id);
  const values = [
    id,
    p.add(worker.host ?? null),
    p.add(worker.pid ?? null),
    p.json([...worker.queues].sort()),
    p.add(worker.startedAt),
    now,
    p.add(new Date(params.now.getTime() + params.ttlMs)),
  ].join(", ");
  return p.statement(
    "heartbeatWorker",
    `
    with forgotten as (
      delete from background_job_workers where id in (
        select id from background_job_workers where expires_at <= ${now} and id <> ${id}
        for update skip locked)
    )
    insert into background_job_workers
      (id, host, pid, queues, started_at, heartbeat_at, expires_at)
    values (${values})
    on conflict (id) do update set host = excluded.host, pid = excluded.pid,
      queues = excluded.queues, started_at = excluded.started_at,
      heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at`,
  );
}

/**
 * Forgets a worker. Locks its row. Index: the primary key.
 *
 * @param id The worker.
 * @returns The statement: no rows.
 */
export function deregisterWorker(id: string): JobStatement {
  const p = new StatementParams();
  const worker = p.add(id);
  return p.statement("deregisterWorker", `delete from background_job_workers where id = ${worker}`);
}

/**
 * The workers live at an instant, oldest first. Reads the small table; locks nothing.
 *
 * @param now The instant.
 * @returns The statement: a row per live worker.
 */
export function listWorkers(now: Date): JobStatement {
  const p = new StatementParams();
  const instant = p.add(now);
  return p.statement(
    "listWorkers",
    `
    select id, host, pid, queues, started_at, heartbeat_at, expires_at
    from background_job_workers where expires_at > ${instant}
    order by started_at, id`,
  );
}
